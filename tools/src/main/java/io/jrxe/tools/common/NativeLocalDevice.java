package io.jrxe.tools.common;

import io.jrxe.tools.UserError;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Device;
import io.jrxe.verbs.PortInfo;
import io.jrxe.verbs.VerbsException;

import java.util.Map;

/**
 * A kernel RDMA device (rxe0, or a real RNIC) opened through libibverbs. jrxe sees none of its packets (the kernel
 * sends them) and does not make it, so the options of a jrxe NIC (--addr, --if-mtu, --capture) are refused; its
 * counters count from the device's creation, so the command reports what moved while it ran.
 */
public final class NativeLocalDevice extends LocalDevice {
    private NativeLocalDevice(Context context, String name, boolean printCounters, Map<String, Long> countersAtStart) {
        super(context, name, printCounters, countersAtStart);
    }

    static NativeLocalDevice open(Device device, DeviceOptions options) {
        options.checkNative(device.name());
        Context ctx;
        try {
            ctx = device.open();
        } catch (VerbsException e) {
            throw new UserError("cannot open " + device.name() + ": " + e.getMessage(), e);
        }
        Map<String, Long> start;
        try {
            start = ctx.counters();
        } catch (VerbsException e) {
            start = Map.of();
        }
        return new NativeLocalDevice(ctx, device.name(), options.counters(), start);
    }

    @Override
    PortInfo queryPort(int number) {
        try {
            return context().queryPort(number);
        } catch (VerbsException e) {
            throw new UserError("device " + name() + " has no port " + number + ": " + e.getMessage(), e);
        }
    }

    @Override
    public int defaultGidIndex() {
        try {
            return DefaultGid.of(context().gidTable(portNumber())).orElseThrow(() -> new UserError("device " + name()
                    + " port " + portNumber() + " has no RoCE v2 GID (jrxe devinfo -v -d " + name() + " lists its GIDs); "
                    + "give a GID index")).index();
        } catch (VerbsException e) {
            throw new UserError("the GID table of " + name() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        closeContext();
    }
}
