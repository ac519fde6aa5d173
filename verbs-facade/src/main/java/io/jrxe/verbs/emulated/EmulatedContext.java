package io.jrxe.verbs.emulated;

import io.jrxe.rnic.NicResources;
import io.jrxe.rnic.device.Port;
import io.jrxe.verbs.AddressSpace;
import io.jrxe.verbs.AsyncEvent;
import io.jrxe.verbs.CompChannel;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Device;
import io.jrxe.verbs.DeviceAttributes;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.PortInfo;
import io.jrxe.verbs.VerbsException;

import io.jrxe.verbs.Errno;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

final class EmulatedContext implements Context {
    private final EmulatedDevice device;
    private final NicResources rnic;
    /** The PDs, CQs and completion channels made from this context. */
    private final OwnedObjects children = new OwnedObjects();
    /** The device's address space: the mapped segments are the NIC's, shared by every context of the device. */
    private final EmulatedAddressSpace addressSpace;
    private volatile boolean closed;

    EmulatedContext(EmulatedDevice device) {
        this.device = device;
        this.rnic = device.rnic();
        this.addressSpace = new EmulatedAddressSpace(device);
    }

    @Override
    public Device device() {
        return device;
    }

    @Override
    public DeviceAttributes queryDevice() {
        return rnic.attributes();
    }

    @Override
    public PortInfo queryPort(int port) throws VerbsException {
        checkPort(port);
        Port p = rnic.port();
        return new PortInfo(p.state().name(), p.maxMtu(), p.activeMtu(), p.linkLayer(), p.gids().size(), p.pkeyTableLength());
    }

    @Override
    public GidEntry queryGid(int port, int index) throws VerbsException {
        return entry(port, rnic.port()::gid, index);
    }

    @Override
    public List<GidEntry> gidTable(int port) throws VerbsException {
        checkPort(port);
        return rnic.port().gids();
    }

    @Override
    public int queryPkey(int port, int index) throws VerbsException {
        return entry(port, rnic.port()::pkey, index);
    }

    /** Entry {@code index} of one of the port's tables; an index out of its range is EINVAL. */
    private static <T> T entry(int port, IntFunction<T> table, int index) throws VerbsException {
        checkPort(port);
        try {
            return table.apply(index);
        } catch (IllegalArgumentException e) {
            throw new VerbsException(Errno.EINVAL, e.getMessage());
        }
    }

    private static void checkPort(int port) throws VerbsException {
        if (port != Port.NUMBER) {
            throw new VerbsException(Errno.EINVAL, "port " + port + " does not exist; the device has port 1");
        }
    }

    @Override
    public Pd allocPd() throws VerbsException {
        requireOpen();
        return adopt(new EmulatedPd(device, Commands.call(rnic, rnic::allocatePd)));
    }

    @Override
    public CompChannel createCompChannel() throws VerbsException {
        requireOpen();
        device.requireOpen();
        return adopt(new EmulatedCompChannel(device, rnic.createCompletionChannel()));
    }

    @Override
    public Cq createCq(int entries, CompChannel channel) throws VerbsException {
        requireOpen();
        EmulatedCompChannel ch = channel == null ? null : Commands.own(channel, EmulatedCompChannel.class, "completion channel");
        return adopt(new EmulatedCq(device, Commands.call(rnic, () -> rnic.createCq(entries, ch == null ? null : ch.channel())), ch));
    }

    @Override
    public AsyncEvent pollAsyncEvent() {
        return rnic.events().poll();
    }

    @Override
    public AsyncEvent awaitAsyncEvent(long timeout, TimeUnit unit) throws InterruptedException {
        return rnic.events().await(timeout, unit);
    }

    @Override
    public AddressSpace addressSpace() throws VerbsException {
        requireOpen();
        return addressSpace;
    }

    @Override
    public Map<String, Long> counters() {
        return device.nic().counters().snapshot();
    }

    /**
     * Closes what was made from the context that is still open, children first (each PD with its QPs, SRQs, AHs,
     * memory windows and MRs, then the CQs, then the completion channels), then the context: after it the context
     * makes nothing more (ENODEV). A child that refuses to close (a QP still attached to a multicast group: EBUSY)
     * stops it with that child's refusal; closing again goes on from there. Idempotent.
     */
    @Override
    public void close() throws VerbsException {
        if (closed) {
            return;
        }
        for (Class<?> kind : new Class<?>[] {EmulatedPd.class, EmulatedCq.class, EmulatedCompChannel.class}) {
            for (OwnedByContext child : children.all()) {
                if (kind.isInstance(child) && !child.isClosed()) {
                    if (child instanceof EmulatedPd pd) {
                        pd.closeWithChildren();
                    } else {
                        child.close();
                    }
                }
            }
        }
        children.clear();
        closed = true;
    }

    private void requireOpen() throws VerbsException {
        if (closed) {
            throw new VerbsException(Errno.ENODEV, "the context of " + device.name() + " is closed");
        }
    }

    private <T extends OwnedByContext> T adopt(T child) {
        return children.adopt(child);
    }
}
