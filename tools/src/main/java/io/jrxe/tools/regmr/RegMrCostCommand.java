package io.jrxe.tools.regmr;

import io.jrxe.tools.UserError;
import io.jrxe.tools.common.ByteSizeConverter;
import io.jrxe.tools.common.DeviceOptions;
import io.jrxe.tools.common.LocalDevice;
import io.jrxe.tools.common.PlotFile;
import io.jrxe.tools.common.ProviderChoice;
import io.jrxe.wire.quantity.ByteSize;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.Callable;

/** `jrxe regmr-cost`: what registering and deregistering memory costs, by buffer size, on one device or several. */
@Command(name = "regmr-cost", mixinStandardHelpOptions = true,
        description = {"Times memory registration (ibv_reg_mr) and deregistration (ibv_dereg_mr) for buffers of each "
                + "size, on a jrxe NIC made for the command or, with -d rxe0, on a kernel device through libibverbs; "
                + "-d may be given several times to compare devices. Prints the median, min and max of a round of "
                + "--repeat timings per size in microseconds, and the cost of one more page (the slope of a straight "
                + "line through the medians); with --plot, draws them on log-log axes, one series per device.",
            "One page-aligned buffer of the largest size has all its pages written before the timings, so the page "
                + "faults of a first touch are not what is measured; each size registers its first bytes. Untimed "
                + "passes over every size come first (the small sizes many times each), until three passes in a row "
                + "take as long as each other (within --tolerance); then each size repeats rounds until the medians "
                + "of its last three rounds are within --tolerance of each other, or --max-rounds is reached. Only "
                + "the last round is reported; the rounds before it were warm-up. Sizes above half the available memory are refused.",
            "With --odp the registrations are ON_DEMAND: their cost stays flat with size, and a second table per device "
                + "gives what the first access to a fresh registration pays instead (its pages brought in by a "
                + "synchronous prefetch, counted and timed).",
            "Example: jrxe regmr-cost --sizes 4K,1M,256M -d jrxe0 -d rxe0 --plot regmr.svg"},
        exitCodeListHeading = "Exit status:%n",
        exitCodeList = {"0:the costs were measured", "1:bad options (a bad size, a plot that is neither .png nor .svg, ...)",
            "2:a device could not be opened or failed"})
public final class RegMrCostCommand implements Callable<Integer> {
    private static final int MAX_REPEAT = 10_000;
    private static final int MAX_ROUNDS = 1_000;
    private static final double MIN_TOLERANCE = 0.1;
    private static final double MAX_TOLERANCE = 50;

    @Spec
    CommandSpec spec;

    @Option(names = "--sizes", paramLabel = "SIZE", split = ",", defaultValue = "4K,64K,1M,16M,256M,1G",
            converter = ByteSizeConverter.class,
            description = "buffer sizes: bytes, or with K, M or G (powers of 1024) (default: ${DEFAULT-VALUE})")
    List<Long> sizes;

    @Option(names = {"-d", "--ib-dev"}, paramLabel = "NAME", defaultValue = DeviceOptions.DEFAULT_DEVICE,
            description = "a device to measure, a series of its own; repeat to compare: jrxe0, jrxe1, ... is a jrxe NIC "
                    + "made for the command, another name the kernel's device (rxe0) (default: ${DEFAULT-VALUE})")
    List<String> devices;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "7",
            description = "timings per round, for each size and device (default: ${DEFAULT-VALUE})")
    int repeat;

    @Option(names = "--tolerance", paramLabel = "PERCENT", defaultValue = "5",
            description = "how close, in percent, the last three rounds' medians must be for the figure to count "
                    + "as settled (default: ${DEFAULT-VALUE})")
    double tolerancePercent;

    @Option(names = "--max-rounds", paramLabel = "N", defaultValue = "30",
            description = "rounds at the most per size, and warm-up passes at the most; a figure not settled by then "
                    + "is reported and marked (default: ${DEFAULT-VALUE})")
    int maxRounds;

    @Option(names = "--odp", description = "register with on-demand paging (IBV_ACCESS_ON_DEMAND): nothing is pinned, so "
            + "the cost no longer grows with the pages; a second table per device shows what the first access then "
            + "pays, a synchronous prefetch of each size's fresh registration (docs/odp.md)")
    boolean odp;

    @Option(names = "--addr", paramLabel = "IP",
            description = "the IP address of the jrxe NICs the command makes (default: 127.0.0.1); kernel devices keep theirs")
    String address;

    @Option(names = "--plot", paramLabel = "FILE",
            description = "also draw the medians on log-log axes into FILE: .png or .svg")
    Path plot;

    @Override
    public Integer call() throws IOException {
        PlotFormat format = checkOptions();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        RegistrationTimer timer = new RegistrationTimer(repeat, new StableRounds(tolerancePercent / 100, maxRounds), err, odp);
        List<DeviceCosts> measured = new ArrayList<>();
        // One device at a time: two jrxe NICs could then share the default address, and each device's timings
        // are free of the others' threads.
        for (String name : devices) {
            try (LocalDevice device = open(name, address, err)) {
                measured.add(timer.measure(device.name(), device.context(), sizes));
            }
        }
        CostTable.print(measured, repeat, tolerancePercent, out);
        if (plot != null) {
            draw(measured, format);
            out.println("plot: " + plot);
        }
        return 0;
    }

    /** Draws the plot, or says in one line why it could not be (PlotFile). */
    private void draw(List<DeviceCosts> measured, PlotFormat format) {
        PlotFile.write(plot, () -> CostPlot.write(measured, repeat, plot, format));
    }

    /** Refuses what cannot be measured before any device is opened; the plot's format, or null without --plot. */
    private PlotFormat checkOptions() {
        if (repeat < 1 || repeat > MAX_REPEAT) {
            throw bad("--repeat " + repeat + ": from 1 to " + MAX_REPEAT);
        }
        if (!(tolerancePercent >= MIN_TOLERANCE && tolerancePercent <= MAX_TOLERANCE)) {
            throw bad("--tolerance " + tolerancePercent + ": a percentage from " + MIN_TOLERANCE + " to " + MAX_TOLERANCE);
        }
        if (maxRounds < StableRounds.WINDOW || maxRounds > MAX_ROUNDS) {
            throw bad("--max-rounds " + maxRounds + ": from " + StableRounds.WINDOW + " (the rounds that must agree) to "
                    + MAX_ROUNDS);
        }
        long largest = MemoryGuard.largestBuffer();
        for (long size : sizes) {
            if (size < 1) {
                throw bad("--sizes: a buffer of " + size + " bytes cannot be registered; give at least 1");
            }
            if (size > largest) {
                throw bad("--sizes: " + ByteSize.unit(size) + " is more than half the memory available now; at most "
                        + ByteSize.unit(largest >> 20 << 20) + " here");
            }
        }
        if (new HashSet<>(devices).size() != devices.size()) {
            throw bad("-d: each device once (" + String.join(", ", devices) + ")");
        }
        if (plot == null) {
            return null;
        }
        return PlotFormat.of(plot).orElseThrow(() -> bad("--plot " + plot + ": name a .png or .svg file"));
    }

    private CommandLine.ParameterException bad(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }

    /**
     * Opens {@code name} as the other commands open their -d: a jrxe NIC made here (on {@code address} when given), or
     * the kernel's device.
     */
    private static LocalDevice open(String name, String address, PrintWriter err) {
        DeviceOptions options = CommandLine.populateCommand(new DeviceOptions(), "-d", name);
        if (address != null && options.choice() instanceof ProviderChoice.Emulated) {
            options = CommandLine.populateCommand(new DeviceOptions(), "-d", name, "--addr", address);
        }
        return options.open(err);
    }
}
