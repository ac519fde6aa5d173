package io.jrxe.tools.regmr;

import io.jrxe.wire.quantity.ByteSize;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The measurements as text: one block per device, one row per size, times in microseconds. */
final class CostTable {
    private static final String ROW = "%9s %9s %12s %10s %10s %12s %10s %10s %7s %8s%n";
    private static final String TOUCH_ROW = "%9s %9s %12s %10s %10s %9s %12s%n";

    private CostTable() {
    }

    static void print(List<DeviceCosts> devices, int repeat, double tolerancePercent, PrintWriter out) {
        String tolerance = String.format(Locale.ROOT, "%s%%", tolerancePercent % 1 == 0
                ? String.valueOf((long) tolerancePercent) : String.valueOf(tolerancePercent));
        for (DeviceCosts device : devices) {
            out.printf("%s (%s): reg_mr and dereg_mr, microseconds, median [min, max] of the last round of %d%n",
                    device.device(), device.provider(), repeat);
            out.printf("  warm-up: %d untimed passes over every size, %s; then rounds per size until the last %d rounds' reg"
                    + " medians were within %s of each other (rounds: how many ran, the last one reported)%n",
                    device.warmUpPasses(), device.warmedUp() ? "until the last " + StableRounds.WINDOW
                            + " took as long as each other (within " + tolerance + ")"
                            : "the last " + StableRounds.WINDOW + " still more than " + tolerance + " apart",
                    StableRounds.WINDOW, tolerance);
            out.printf(ROW, "size", "pages", "reg median", "reg min", "reg max", "dereg median", "dereg min", "dereg max",
                    "rounds", "ns/page");
            List<String> unsettled = new ArrayList<>();
            SizeCost previous = null;
            for (SizeCost row : device.rows()) {
                String size = ByteSize.unit(row.bytes()).replace(" ", "");
                out.printf(ROW, size, ByteSize.count(PageSlope.pages(row)),
                        micros(row.registration().medianMicros()), micros(row.registration().minMicros()),
                        micros(row.registration().maxMicros()), micros(row.deregistration().medianMicros()),
                        micros(row.deregistration().minMicros()), micros(row.deregistration().maxMicros()),
                        row.rounds() + (row.settled() ? "" : "*"), marginal(previous, row));
                previous = row;
                if (!row.settled()) {
                    unsettled.add(size);
                }
            }
            if (!unsettled.isEmpty()) {
                out.printf("  * not settled: the last %d rounds' medians of %s were more than %s apart%n",
                        StableRounds.WINDOW, String.join(", ", unsettled), tolerance);
            }
            PageSlope slope = PageSlope.of(device.rows());
            if (slope != null) {
                out.printf(Locale.ROOT, "  per page: %.1f ns (the slope of a least-squares line through the reg medians "
                        + "against the pages; at zero pages it gives %.1f us)%n", slope.nanosPerPage(), slope.fixedMicros());
            }
            printTouches(device, repeat, out);
        }
        out.flush();
    }

    /**
     * With --odp: what the first access to each size's fresh ON_DEMAND registration paid, the pages it brought in and
     * the device's modelled cost of them; or why the device could not be touched so.
     */
    private static void printTouches(DeviceCosts device, int repeat, PrintWriter out) {
        if (device.touchRefused() != null) {
            out.println("  first touch: not measured, the device cannot prefetch: " + device.touchRefused());
            return;
        }
        if (device.touches().isEmpty()) {
            return;
        }
        out.printf("  first touch of a fresh ON_DEMAND registration (ibv_advise_mr PREFETCH_WRITE, FLUSH, whole buffer), "
                + "microseconds, median [min, max] of %d; pages in and the device's modelled fault cost (- where the device "
                + "does not count them)%n", repeat);
        out.printf(TOUCH_ROW, "size", "pages", "touch median", "touch min", "touch max", "pages in", "modelled us");
        for (FirstTouch t : device.touches()) {
            out.printf(TOUCH_ROW, ByteSize.unit(t.bytes()).replace(" ", ""), ByteSize.count(Math.ceilDiv(t.bytes(),
                            RegistrationTimer.PAGE)), micros(t.time().medianMicros()), micros(t.time().minMicros()),
                    micros(t.time().maxMicros()), t.pagesIn() < 0 ? "-" : ByteSize.count(t.pagesIn()),
                    t.modelledNanos() < 0 ? "-" : micros(t.modelledNanos() / 1000.0));
        }
    }

    /**
     * What each page beyond the previous size's cost, in nanoseconds: the two reg medians' difference over the two
     * page counts'; "-" for the first size, or one with no more pages than the previous.
     */
    static String marginal(SizeCost previous, SizeCost row) {
        if (previous == null || PageSlope.pages(row) <= PageSlope.pages(previous)) {
            return "-";
        }
        double nanos = (row.registration().medianMicros() - previous.registration().medianMicros()) * 1000
                / (PageSlope.pages(row) - PageSlope.pages(previous));
        return String.format(Locale.ROOT, "%.1f", nanos);
    }

    private static String micros(double value) {
        return String.format(Locale.ROOT, value < 100 ? "%.1f" : "%,.0f", value);
    }
}
