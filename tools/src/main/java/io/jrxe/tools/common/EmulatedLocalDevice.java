package io.jrxe.tools.common;

import io.jrxe.verbs.emulated.Warmup;
import io.jrxe.tools.BadOption;
import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicContext;
import io.jrxe.rnic.device.Port;
import io.jrxe.tools.UserError;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.PortInfo;
import io.jrxe.verbs.facade.Verbs;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.wire.capture.CaptureException;
import io.jrxe.wire.capture.CaptureTap;
import io.jrxe.wire.capture.PcapngWriter;
import io.jrxe.wire.port.shm.ShmDirectory;
import io.jrxe.wire.port.udp.PortInUseException;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Map;

/**
 * A jrxe NIC made for the command: on real UDP (its own NIC thread, a socket on {@code --addr} port 4791), warmed
 * up, opened, with its packets going to the capture file when one was asked for. When its IPv4 packets cannot
 * leave through a raw socket, it says so on stderr as it starts. Closing it releases the socket and the NIC
 * thread and finishes the capture.
 */
public final class EmulatedLocalDevice extends LocalDevice {
    private final EmulatedDevice device;
    private final CaptureTap capture;
    private final Path captureFile;

    private EmulatedLocalDevice(EmulatedDevice device, Context context, CaptureTap capture, Path captureFile,
                                boolean printCounters, Map<String, Long> countersAtStart) {
        super(context, device.name(), printCounters, countersAtStart);
        this.device = device;
        this.capture = capture;
        this.captureFile = captureFile;
    }

    public static EmulatedLocalDevice open(DeviceOptions options, PrintWriter err) {
        InetAddress address = options.address();
        EmulatedDevice device;
        try {
            DeviceConfig config = DeviceConfig.of(options.deviceName(), address).withInterfaceMtu(options.interfaceMtu())
                    .withRxeFlushIcrc(options.rxeFlushIcrc).withFaults(options.faults()).withEcnCapable(options.ecn)
                    .withOdp(options.odp());
            NicContext context = new NicContext(config).congestionControl(options.congestionControl());
            device = options.sharedMemoryWire() ? Verbs.emulated().createShm(context, ShmDirectory.standard(), options.progress())
                    : Verbs.emulated().createUdp(context, options.progress());
        } catch (PortInUseException e) {
            throw new UserError("cannot open device " + options.deviceName() + " on " + address.getHostAddress() + ": "
                    + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new UserError("cannot open device " + options.deviceName() + ": " + e.getMessage(), e);
        }
        TransmitNotice.warnIfUnverifiable(options.deviceName(), TransmitNotice.of(device), err);
        CaptureTap capture = null;
        try {
            Warmup.run(device, device.open(), new Warmup.Options(options.jitWarmupMillis(),
                    options.jitWarmupUntilQuiet() ? new JitActivity()::busy : null, ToolWaits.INSTANCE));
            if (options.capture() != null) {
                capture = new CaptureTap(new PcapngWriter(options.capture()), options.captureMaxPackets(),
                        options.captureMaxBytes(), options.captureSnapLength());
                device.nic().port().tap(capture.forPort(options.deviceName()));
            }
            // --counters tells what the command moved: the warm-up's traffic is not the command's.
            Map<String, Long> afterWarmup = device.nic().counters().snapshot();
            return new EmulatedLocalDevice(device, device.open(), capture, options.capture(), options.counters(), afterWarmup);
        } catch (CaptureException e) {
            Verbs.emulated().remove(device);
            IOException io = FileErrors.ioCause(e);
            if (io != null && options.capture() != null) {
                throw new BadOption("--capture " + options.capture() + ": cannot create it: " + FileErrors.why(io), e);
            }
            throw new UserError(e.getMessage(), e);
        } catch (RuntimeException e) {
            Verbs.emulated().remove(device);
            throw e;
        }
    }

    public EmulatedDevice device() {
        return device;
    }

    @Override
    public int progress() {
        return device.progress();
    }

    @Override
    public LatencyBreakdown traceLatency() {
        LatencyBreakdown breakdown = new LatencyBreakdown();
        device.nic().trace(breakdown);
        return breakdown;
    }

    /** Port 1: the only port a jrxe device has. Other numbers are a user error. */
    @Override
    PortInfo queryPort(int number) {
        if (number != Port.NUMBER) {
            throw new BadOption("-i/--ib-port " + number + ": device " + name() + " has port " + Port.NUMBER + " only");
        }
        try {
            return context().queryPort(number);
        } catch (VerbsException e) {
            throw new UserError(e.getMessage(), e);
        }
    }

    /** The RoCE v2 GID of --addr. */
    @Override
    public int defaultGidIndex() {
        return device.nic().resources().port().defaultGidIndex();
    }

    /** Also tells that the capture reached its bounds and left packets out. */
    @Override
    public void report(PrintWriter err) {
        if (capture != null && capture.skipped() > 0) {
            err.printf("jrxe: the capture %s holds the first %d packets; %d more were left out (--capture-max-packets, "
                    + "--capture-max-mb)%n", captureFile, capture.written(), capture.skipped());
        }
        super.report(err);
    }

    @Override
    public void close() {
        closeContext();
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
