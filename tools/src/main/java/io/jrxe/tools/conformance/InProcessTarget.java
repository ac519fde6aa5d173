package io.jrxe.tools.conformance;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicContext;
import io.jrxe.tools.UserError;
import io.jrxe.tools.rcops.RcOpsDest;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.verbs.facade.Verbs;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.shm.ShmDirectory;
import io.jrxe.wire.port.udp.PortInUseException;

import java.lang.foreign.ValueLayout;
import java.net.InetAddress;

/**
 * The default target: a jrxe NIC started in this process on a loopback address, on real UDP or on the
 * shared-memory wire (run by the standby thread while nothing polls it). Each case gets a
 * {@link TargetSetup} (with a memory window) and a UD QP next to it, and the tester sees the NIC's inside: its
 * counters, the case QP's state, its buffer and completions.
 */
final class InProcessTarget implements Target {
    static final String DEVICE_NAME = "jrxe-conformance";
    private static final int UD_RECEIVE_BYTES = 40 + 256;

    private final EmulatedDevice device;
    private final Context context;
    private final PeerAddress address;
    private final boolean sharedMemory;
    private int nextSendPsn = 0x200000;

    /** @param rings the shared-memory wire's directory, or null for UDP */
    InProcessTarget(InetAddress at, ShmDirectory rings) {
        address = PeerAddress.of(at);
        sharedMemory = rings != null;
        DeviceConfig config = DeviceConfig.of(DEVICE_NAME, at);
        try {
            device = rings != null ? Verbs.emulated().createShm(new NicContext(config), rings) : Verbs.emulated().createUdp(config);
        } catch (PortInUseException e) {
            throw new UserError("cannot start the target NIC on " + at.getHostAddress() + ": " + e.getMessage(), e);
        }
        context = device.open();
    }

    @Override
    public String describe() {
        return "jrxe NIC " + DEVICE_NAME + " in this process on " + address.address().getHostAddress()
                + (sharedMemory ? " (shared-memory wire)" : "");
    }

    @Override
    public boolean inProcess() {
        return true;
    }

    @Override
    public TargetQp connect(int testerQpn, int startPsn, byte[] testerGid) {
        TargetSetup setup = null;
        Cq udCq = null;
        Mr udMr = null;
        Qp ud = null;
        try {
            setup = new TargetSetup(context, true);
            Mtu mtu = Mtu.ofBytes(CaseTable.MTU);
            int sendPsn = nextSendPsn;
            nextSendPsn = (nextSendPsn + 0x1000) & 0xFFFFFF;
            RcOpsDest tester = new RcOpsDest(testerQpn, startPsn, testerGid, 0, 0, CaseTable.MTU);
            setup.connect(tester, sendPsn, device.nic().resources().port().defaultGidIndex(), 1, mtu);
            udCq = context.createCq(8, null);
            ud = setup.pd.createQp(new QpInitAttributes(QpType.UD, udCq, udCq, null, new QpCapabilities(1, 4, 1, 1, 0), false));
            ud.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).qkey(TargetLayout.UD_QKEY));
            ud.modify(new QpAttributes().state(QpState.RTR));
            ud.modify(new QpAttributes().state(QpState.RTS).sqPsn(0));
            udMr = setup.pd.regMr(setup.buf.asSlice(TargetLayout.UD_RECEIVE_AT, UD_RECEIVE_BYTES), Access.LOCAL_WRITE);
            RecvWr r = new RecvWr(1);
            r.wrId = 100;
            r.sgl.add(setup.buf.address() + TargetLayout.UD_RECEIVE_AT, UD_RECEIVE_BYTES, udMr.lkey());
            ud.postRecv(r);
            TargetSetup s = setup;
            Qp udQp = ud;
            Mr udRegion = udMr;
            Cq udQueue = udCq;
            return new TargetQp(setup.dest(address.gid(), sendPsn, mtu), setup.keys(), ud.qpNum(),
                    new Inside(s, udQueue), () -> {
                        closeAll(udQp, udRegion, udQueue);
                        s.close();
                    });
        } catch (VerbsException e) {
            closeAll(ud, udMr, udCq);
            if (setup != null) {
                setup.close();
            }
            throw new UserError("cannot set up the target's QP: " + e.getMessage(), e);
        }
    }

    private static void closeAll(AutoCloseable... resources) {
        for (AutoCloseable r : resources) {
            if (r != null) {
                try {
                    r.close();
                } catch (Exception e) {
                    // released with the device at the end
                }
            }
        }
    }

    /** The case QP's inside, read through the verbs API and the NIC's counters. */
    private final class Inside implements TargetInspector {
        private final TargetSetup setup;
        private final Cq udCq;
        private final WorkCompletion[] one = {new WorkCompletion()};

        Inside(TargetSetup setup, Cq udCq) {
            this.setup = setup;
            this.udCq = udCq;
        }

        @Override
        public long counter(String name) {
            return device.nic().counters().snapshot().getOrDefault(name, 0L);
        }

        @Override
        public QpState rcState() {
            try {
                return setup.qp.query().state();
            } catch (VerbsException e) {
                throw new UserError("cannot query the target's QP: " + e.getMessage(), e);
            }
        }

        @Override
        public byte[] memory(int at, int length) {
            return setup.buf.asSlice(at, length).toArray(ValueLayout.JAVA_BYTE);
        }

        @Override
        public WorkCompletion pollRc() {
            return setup.cq.poll(one) == 1 ? one[0] : null;
        }

        @Override
        public WorkCompletion pollUd() {
            return udCq.poll(one) == 1 ? one[0] : null;
        }
    }

    @Override
    public void close() {
        try {
            context.close();
        } catch (Exception e) {
            // the device goes next with whatever it still holds
        }
        device.close();
    }
}
