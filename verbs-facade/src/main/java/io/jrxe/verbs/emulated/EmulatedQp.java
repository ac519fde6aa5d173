package io.jrxe.verbs.emulated;

import io.jrxe.rnic.Rnic;
import io.jrxe.rnic.engine.DataPath;
import io.jrxe.rnic.engine.QpHandle;
import io.jrxe.rnic.engine.WorkPoster;
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

final class EmulatedQp implements Qp {
    private final Rnic rnic;
    private final DataPath dataPath;
    private final QueuePair qp;
    private final QpHandle handle;
    private final EmulatedDevice device;
    /** The device's published name when this QP's MBean is registered, else null. */
    private volatile String publishedUnder;

    EmulatedQp(EmulatedDevice device, QueuePair qp, QpHandle handle) {
        this.rnic = device.rnic();
        this.dataPath = device.dataPath();
        this.qp = qp;
        this.handle = handle;
        this.device = device;
    }

    /** Registers the QP's MBean when its device is published (off the NIC thread). */
    void publish() {
        String deviceName = device.publishedName();
        if (deviceName != null && handle != null) {
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
        Commands.run(rnic, () -> {
            QpState from = qp.state();
            qp.modify(attributes, rnic.attributes(), rnic.port());
            if (dataPath != null) {
                dataPath.modified(qp, from);
            }
        });
    }

    @Override
    public QpAttributes query() throws VerbsException {
        return Commands.call(rnic, qp::query);
    }

    @Override
    public void postSend(SendWr wr) throws VerbsException {
        try {
            requireDataPath();
            WorkPoster.postSend(handle, qp, wr, qp.type() == QpType.UD ? rnic.port().activeMtu().bytes()
                    : qp.pathMtu().bytes());
        } catch (PostException e) {
            throw Commands.refused(e);
        }
    }

    @Override
    public void postRecv(RecvWr wr) throws VerbsException {
        try {
            requireDataPath();
            WorkPoster.postRecv(handle, qp, wr);
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
        DataPath dp = requireDataPath();
        byte[] group = gid == null ? null : gid.clone();
        synchronized (device.multicastLock()) {
            PeerAddress join = Commands.call(rnic, () -> rnic.multicast().attach(qp, group, lid));
            if (join == null) {
                return;
            }
            try {
                dp.port().joinGroup(join);
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
        DataPath dp = requireDataPath();
        byte[] group = gid == null ? null : gid.clone();
        synchronized (device.multicastLock()) {
            PeerAddress leave = Commands.call(rnic, () -> rnic.multicast().detach(qp, group, lid));
            if (leave != null) {
                dp.port().leaveGroup(leave);
            }
        }
    }

    private DataPath requireDataPath() throws VerbsException {
        if (dataPath == null) {
            throw new VerbsException(Errno.ENOSYS, "device " + rnic.name() + " has no network port: it cannot move data");
        }
        return dataPath;
    }

    @Override
    public void close() throws VerbsException {
        Commands.run(rnic, () -> {
            rnic.destroyQp(qp);
            if (dataPath != null) {
                dataPath.detach(qp);
            }
        });
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
