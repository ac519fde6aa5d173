package io.jrxe.tools.regmr;

import io.jrxe.tools.sizing.ByteSize;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/** The measurements as text: one block per device, one row per size, times in microseconds. */
final class CostTable {
    private static final String ROW = "%9s %9s %12s %10s %10s %12s %10s %10s%n";

    private CostTable() {
    }

    static void print(List<DeviceCosts> devices, int repeat, PrintWriter out) {
        for (DeviceCosts device : devices) {
            out.printf("%s (%s): reg_mr and dereg_mr, microseconds, median [min, max] of %d%n",
                    device.device(), device.provider(), repeat);
            out.printf(ROW, "size", "pages", "reg median", "reg min", "reg max", "dereg median", "dereg min", "dereg max");
            for (SizeCost row : device.rows()) {
                out.printf(ROW, ByteSize.unit(row.bytes()).replace(" ", ""),
                        ByteSize.count(Math.ceilDiv(row.bytes(), RegistrationTimer.PAGE)),
                        micros(row.registration().medianMicros()), micros(row.registration().minMicros()),
                        micros(row.registration().maxMicros()), micros(row.deregistration().medianMicros()),
                        micros(row.deregistration().minMicros()), micros(row.deregistration().maxMicros()));
            }
        }
        out.flush();
    }

    private static String micros(double value) {
        return String.format(Locale.ROOT, value < 100 ? "%.1f" : "%,.0f", value);
    }
}
