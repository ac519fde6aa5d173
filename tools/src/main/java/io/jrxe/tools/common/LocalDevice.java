package io.jrxe.tools.common;

import io.jrxe.tools.BadOption;
import io.jrxe.verbs.GidEntry;
import io.jrxe.tools.UserError;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.PortInfo;
import io.jrxe.verbs.VerbsException;

import java.io.PrintWriter;
import java.util.Map;

/**
 * The one device a command works with, opened: a jrxe NIC made for the command ({@link EmulatedLocalDevice}) or a
 * kernel device such as rxe0 ({@link NativeLocalDevice}), as {@code -d} chose (see {@link ProviderChoice}). The
 * commands use it through the verbs API only, so they run on either. Closing it releases what the command made.
 */
public abstract sealed class LocalDevice implements AutoCloseable permits EmulatedLocalDevice, NativeLocalDevice {
    private final Context context;
    private final String name;
    private final boolean printCounters;
    private final Map<String, Long> countersAtStart;
    private int portNumber = 1;

    LocalDevice(Context context, String name, boolean printCounters, Map<String, Long> countersAtStart) {
        this.context = context;
        this.name = name;
        this.printCounters = printCounters;
        this.countersAtStart = countersAtStart;
    }

    /** Opens the device the options describe; start-up warnings (a jrxe NIC's transmit path) go to {@code err}. */
    static LocalDevice open(DeviceOptions options, PrintWriter err) {
        options.checkValues();
        return switch (options.choice()) {
            case ProviderChoice.Emulated e -> EmulatedLocalDevice.open(options, err);
            case ProviderChoice.Native n -> NativeLocalDevice.open(n.device(), options);
        };
    }

    public Context context() {
        return context;
    }

    public String name() {
        return name;
    }

    /** "emulated" or "native". */
    public String provider() {
        return context.device().provider();
    }

    /** The port the command uses (ibv's numbering, from 1); the GIDs are then this port's. A missing one is a user error. */
    public PortInfo port(int number) {
        PortInfo info = queryPort(number);
        portNumber = number;
        return info;
    }

    abstract PortInfo queryPort(int number);

    /** The GID index a command uses when none is given: the RoCE v2 GID the device is reached at. */
    public abstract int defaultGidIndex();

    /** The GID at {@code index} of the port's table (`jrxe devinfo -v` prints it), or a user error naming the problem. */
    public GidEntry gid(int index) {
        try {
            return context.queryGid(portNumber, index);
        } catch (VerbsException e) {
            throw new BadOption("GID index " + index + ": " + e.getMessage(), e);
        }
    }

    int portNumber() {
        return portNumber;
    }

    /** What a command tells on {@code err} at its end: with --counters, the counters that moved. */
    public void report(PrintWriter err) {
        if (printCounters) {
            err.println(movedCounters());
        }
        err.flush();
    }

    /**
     * The counters that moved since the command got the device, on one line: a kernel device's count from its
     * creation and a jrxe NIC's from before its warm-up, so what they read then is subtracted.
     */
    public String movedCounters() {
        try {
            StringBuilder sb = new StringBuilder("counters of " + name + ":");
            context.counters().forEach((k, v) -> {
                long moved = v - countersAtStart.getOrDefault(k, 0L);
                if (moved != 0) {
                    sb.append(' ').append(k).append('=').append(moved);
                }
            });
            return sb.toString();
        } catch (VerbsException e) {
            return "counters of " + name + " unavailable: " + e.getMessage();
        }
    }

    /** How far each of the named counters moved since the command got the device, counted as {@link #movedCounters}. */
    public long[] moved(String... counterNames) throws VerbsException {
        Map<String, Long> now = context.counters();
        long[] moved = new long[counterNames.length];
        for (int i = 0; i < counterNames.length; i++) {
            moved[i] = now.getOrDefault(counterNames[i], 0L) - countersAtStart.getOrDefault(counterNames[i], 0L);
        }
        return moved;
    }

    /**
     * Runs a jrxe NIC's duty cycle on this thread when the program runs it ({@code --progress invoker}): a loop that
     * waits by polling memory, not a CQ, calls it as it spins. Otherwise does nothing.
     */
    public int progress() {
        return 0;
    }

    /** Starts --latency-breakdown's recording on this device's engines; only a jrxe device has engines to trace. */
    public LatencyBreakdown traceLatency() {
        throw new BadOption("--latency-breakdown needs a jrxe device: " + name + " is a kernel device, whose engines cannot be traced");
    }

    /** Releases what the command made; never throws a checked exception. */
    @Override
    public abstract void close();

    void closeContext() {
        try {
            context.close();
        } catch (VerbsException e) {
            // Closing a context releases nothing the command still needs; what follows happens in any case.
        }
    }
}
