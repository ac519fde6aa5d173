package io.jrxe.verbs.emulated;

import io.jrxe.rnic.Nic;
import io.jrxe.rnic.NicResources;
import io.jrxe.rnic.engine.QpHandle;
import io.jrxe.rnic.qp.QueuePair;
import io.jrxe.rnic.queue.PostException;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.wire.port.MulticastJoinException;
import io.jrxe.wire.port.PeerAddress;

final class EmulatedQp implements Qp, OwnedByContext {
    private final Nic nic;
    private final NicResources rnic;
    private final QueuePair qp;
    private final QpHandle handle;
    private final EmulatedDevice device;
    private final CloseOnce closing = new CloseOnce();
    /** The device's published name when this QP's MBean is registered, else null. */
    private volatile String publishedUnder;

    EmulatedQp(EmulatedDevice device, QpHandle handle) {
        this.nic = device.nic();
        this.rnic = nic.resources();
        this.qp = handle.qp();
        this.handle = handle;
        this.device = device;
    }

    /** Registers the QP's MBean when its device is published (off the NIC thread). */
    void publish() {
        String deviceName = device.publishedName();
        if (deviceName != null && handle.movesData()) {
            LiveStatePublisher.publishQp(device, deviceName, qp.qpn(), handle);
            publishedUnder = deviceName;
        }
    }

    QueuePair qp() {
        return qp;
    }

    @Override
    public int qpNum() {
        return qp.qpn();
    }

    @Override
    public QpType type() {
        return qp.type();
    }

    @Override
    public void modify(QpAttributes attributes) throws VerbsException {
        Commands.run(rnic, () -> nic.modifyQp(handle, attributes));
    }

    @Override
    public QpAttributes query() throws VerbsException {
        return Commands.call(rnic, qp::query);
    }

    @Override
    public void postSend(SendWr wr) throws VerbsException {
        device.requireOpen();
        try {
            handle.postSend(wr);
        } catch (PostException e) {
            throw Commands.refused(e);
        }
    }

    @Override
    public void postRecv(RecvWr wr) throws VerbsException {
        device.requireOpen();
        try {
            handle.postRecv(wr);
        } catch (PostException e) {
            throw Commands.refused(e);
        }
    }

    /**
     * The table changes on the NIC thread; the port joins the IP group (the first QP of the device in it) after,
     * on this thread, since joining waits for the socket layer, which the NIC thread must not. A port that cannot
     * join undoes the attachment. The device's lock keeps another attach or detach of it from coming in between.
     */
    @Override
    public void attachMcast(byte[] gid, int lid) throws VerbsException {
        requireNetwork();
        byte[] group = gid == null ? null : gid.clone();
        synchronized (device.multicastLock()) {
            PeerAddress join = Commands.call(rnic, () -> rnic.multicast().attach(qp, group, lid));
            if (join == null) {
                return;
            }
            try {
                nic.port().joinGroup(join);
            } catch (MulticastJoinException e) {
                Commands.run(rnic, () -> rnic.multicast().detach(qp, group, lid));
                throw new VerbsException(Errno.EADDRNOTAVAIL, String.format("attach QP 0x%06x to group %s: %s",
                        qp.qpn(), join, e.getMessage()));
            }
        }
    }

    /** The port leaves the IP group when the device's last QP in it detached. */
    @Override
    public void detachMcast(byte[] gid, int lid) throws VerbsException {
        requireNetwork();
        byte[] group = gid == null ? null : gid.clone();
        synchronized (device.multicastLock()) {
            PeerAddress leave = Commands.call(rnic, () -> rnic.multicast().detach(qp, group, lid));
            if (leave != null) {
                nic.port().leaveGroup(leave);
            }
        }
    }

    private void requireNetwork() throws VerbsException {
        if (!nic.hasNetwork()) {
            throw new VerbsException(Errno.ENOSYS, "device " + rnic.name() + " has no network port: it cannot move data");
        }
    }

    @Override
    public boolean isClosed() {
        return closing.isClosed();
    }

    @Override
    public void close() throws VerbsException {
        closing.close(device, rnic, () -> nic.destroyQp(handle));
        String deviceName = publishedUnder;
        if (deviceName != null) {
            publishedUnder = null;
            LiveStatePublisher.unpublishQp(deviceName, qp.qpn());
        }
    }

    @Override
    public String toString() {
        return qp.toString();
    }
}
