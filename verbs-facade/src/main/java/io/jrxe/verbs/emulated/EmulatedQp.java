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
