package io.jrxe.tools.regmr;

import io.jrxe.tools.UserError;
import io.jrxe.tools.common.DeviceOptions;
import io.jrxe.tools.common.LocalDevice;
import io.jrxe.tools.sizing.ByteSize;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.Callable;

/** `jrxe regmr-cost`: what registering and deregistering memory costs, by buffer size, on one device or several. */
@Command(name = "regmr-cost", mixinStandardHelpOptions = true,
        description = {"Times memory registration (ibv_reg_mr) and deregistration (ibv_dereg_mr) for buffers of each "
                + "size, on a jrxe NIC made for the command or, with -d rxe0, on a kernel device through libibverbs; "
                + "-d may be given several times to compare devices. Prints the median, min and max of --repeat "
                + "timings per size in microseconds and, with --plot, draws them on log-log axes, one series per device.",
            "Each size gets one page-aligned buffer whose pages are all written before the timings, so the page "
                + "faults of a first touch are not what is measured; one untimed registration per size comes first. "
                + "Sizes above half the available memory are refused.",
            "Example: jrxe regmr-cost --sizes 4K,1M,256M -d jrxe0 -d rxe0 --plot regmr.svg"},
        exitCodeListHeading = "Exit status:%n",
        exitCodeList = {"0:the costs were measured", "1:bad options (a bad size, a plot that is neither .png nor .svg, ...)",
            "2:a device could not be opened or failed"})
public final class RegMrCostCommand implements Callable<Integer> {
    private static final int MAX_REPEAT = 10_000;

    @Spec
    CommandSpec spec;

    @Option(names = "--sizes", paramLabel = "SIZE", split = ",", defaultValue = "4K,64K,1M,16M,256M,1G",
            converter = ByteSize.Converter.class,
            description = "buffer sizes: bytes, or with K, M or G (powers of 1024) (default: ${DEFAULT-VALUE})")
    List<Long> sizes;

    @Option(names = {"-d", "--ib-dev"}, paramLabel = "NAME", defaultValue = DeviceOptions.DEFAULT_DEVICE,
            description = "a device to measure, a series of its own; repeat to compare: jrxe0, jrxe1, ... is a jrxe NIC "
                    + "made for the command, another name the kernel's device (rxe0) (default: ${DEFAULT-VALUE})")
    List<String> devices;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "7",
            description = "timings per size and device (default: ${DEFAULT-VALUE})")
    int repeat;

    @Option(names = "--plot", paramLabel = "FILE",
            description = "also draw the medians on log-log axes into FILE: .png or .svg")
    Path plot;

    @Override
    public Integer call() throws IOException {
        PlotFormat format = checkOptions();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        RegistrationTimer timer = new RegistrationTimer(repeat, err);
        List<DeviceCosts> measured = new ArrayList<>();
        // One device at a time: two jrxe NICs could then share the default address, and each device's timings
        // are free of the others' threads.
        for (String name : devices) {
            try (LocalDevice device = open(name, err)) {
                measured.add(timer.measure(device.name(), device.context(), sizes));
            }
        }
        CostTable.print(measured, repeat, out);
        if (plot != null) {
            draw(measured, format);
            out.println("plot: " + plot);
        }
        return 0;
    }

    /**
     * Draws the plot, or says in one line why Java's graphics cannot here: a machine without fonts (a minimal
     * server or VM image) makes AWT throw an Error ("Fontconfig head is null"), which would otherwise end the
     * command with a stack trace after the table was already printed.
     */
    private void draw(List<DeviceCosts> measured, PlotFormat format) throws IOException {
        try {
            CostPlot.write(measured, repeat, plot, format);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Error | RuntimeException e) {
            Files.deleteIfExists(plot); // opened before drawing: an empty file would pass for a plot
            throw new IOException("--plot " + plot + ": Java could not draw on this machine (" + e.getMessage()
                    + "); it needs fonts, e.g. Debian's fonts-dejavu-core, and the table above is complete without it");
        }
    }

    /** Refuses what cannot be measured before any device is opened; the plot's format, or null without --plot. */
    private PlotFormat checkOptions() {
        if (repeat < 1 || repeat > MAX_REPEAT) {
            throw bad("--repeat " + repeat + ": from 1 to " + MAX_REPEAT);
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

    /** Opens {@code name} as the other commands open their -d: a jrxe NIC made here, or the kernel's device. */
    private static LocalDevice open(String name, PrintWriter err) {
        DeviceOptions options = CommandLine.populateCommand(new DeviceOptions(), "-d", name);
        return options.open(err);
    }
}
