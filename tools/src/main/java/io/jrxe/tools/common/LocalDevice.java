package io.jrxe.tools.common;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.device.GidEntry;
import io.jrxe.rnic.device.Port;
import io.jrxe.tools.UserError;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.PortInfo;
import io.jrxe.verbs.Verbs;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.wire.capture.CaptureException;
import io.jrxe.wire.capture.CaptureTap;
import io.jrxe.wire.capture.PcapngWriter;
import io.jrxe.wire.port.udp.PortInUseException;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.file.Path;

/**
 * The one jrxe device a command works with: a NIC on real UDP (its own NIC thread, a socket on
 * {@code --addr} port 4791), opened, with its packets going to the capture file when one was asked for. When its
 * IPv4 packets cannot leave through a raw socket, it says so on stderr as it starts.
 * Closing it releases the socket and the NIC thread and finishes the capture.
 */
public final class LocalDevice implements AutoCloseable {
    private final EmulatedDevice device;
    private final Context context;
    private final CaptureTap capture;
    private final Path captureFile;
    private final boolean printCounters;

    private LocalDevice(EmulatedDevice device, Context context, CaptureTap capture, Path captureFile, boolean printCounters) {
        this.device = device;
        this.context = context;
        this.capture = capture;
        this.captureFile = captureFile;
        this.printCounters = printCounters;
    }

    static LocalDevice open(DeviceOptions options, PrintWriter err) {
        InetAddress address = options.address();
        EmulatedDevice device;
        try {
            device = Verbs.emulated().createUdp(DeviceConfig.of(options.deviceName(), address)
                    .withInterfaceMtu(options.interfaceMtu()));
        } catch (PortInUseException e) {
            throw new UserError("cannot open device " + options.deviceName() + " on " + address.getHostAddress() + ": "
                    + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new UserError("cannot open device " + options.deviceName() + ": " + e.getMessage(), e);
        }
        TransmitNotice.warnIfUnverifiable(options.deviceName(), TransmitNotice.of(device), err);
        CaptureTap capture = null;
        try {
            Warmup.run(device, device.open(), options.jitWarmupMillis());
            if (options.capture() != null) {
                capture = new CaptureTap(new PcapngWriter(options.capture()), options.captureMaxPackets(),
                        options.captureMaxBytes(), options.captureSnapLength());
                device.dataPath().port().tap(capture.forPort(options.deviceName()));
            }
            return new LocalDevice(device, device.open(), capture, options.capture(), options.counters());
        } catch (CaptureException e) {
            Verbs.emulated().remove(device);
            throw new UserError(e.getMessage(), e);
        } catch (RuntimeException e) {
            Verbs.emulated().remove(device);
            throw e;
        }
    }

    public EmulatedDevice device() {
        return device;
    }

    public Context context() {
        return context;
    }

    public String name() {
        return device.name();
    }

    /** Port 1: the only port a jrxe device has. Other numbers are a user error. */
    public PortInfo port(int number) {
        if (number != Port.NUMBER) {
            throw new UserError("device " + name() + " has port " + Port.NUMBER + " only, not port " + number);
        }
        try {
            return context.queryPort(number);
        } catch (VerbsException e) {
            throw new UserError(e.getMessage(), e);
        }
    }

    /** The index of the device's default GID: the RoCE v2 GID of --addr. */
    public int defaultGidIndex() {
        return device.rnic().port().defaultGidIndex();
    }

    /** The GID at {@code index} of the table `jrxe devinfo -v` prints, or a user error naming the valid range. */
    public GidEntry gid(int index) {
        try {
            return context.queryGid(Port.NUMBER, index);
        } catch (VerbsException e) {
            throw new UserError("GID index " + index + ": " + e.getMessage(), e);
        }
    }

    /**
     * What a command tells on {@code err} at its end: that the capture reached its bounds and left packets out,
     * and with --counters, the counters that moved.
     */
    public void report(PrintWriter err) {
        if (capture != null && capture.skipped() > 0) {
            err.printf("jrxe: the capture %s holds the first %d packets; %d more were left out (--capture-max-packets, "
                    + "--capture-max-mb)%n", captureFile, capture.written(), capture.skipped());
        }
        if (printCounters) {
            err.println(nonZeroCounters());
        }
        err.flush();
    }

    /** The device's counters that are not zero, on one line. */
    public String nonZeroCounters() {
        try {
            StringBuilder sb = new StringBuilder("counters of " + name() + ":");
            context.counters().forEach((k, v) -> {
                if (v != 0) {
                    sb.append(' ').append(k).append('=').append(v);
                }
            });
            return sb.toString();
        } catch (VerbsException e) {
            return "counters of " + name() + " unavailable: " + e.getMessage();
        }
    }

    @Override
    public void close() {
        try {
            context.close();
        } catch (VerbsException e) {
            // Closing a context releases nothing of its own; the device goes next in any case.
        }
        Verbs.emulated().remove(device);
        if (capture != null) {
            try {
                capture.close();
            } catch (IOException e) {
                throw new UserError("cannot finish the capture " + captureFile + ": " + e.getMessage(), e);
            }
        }
    }
}
