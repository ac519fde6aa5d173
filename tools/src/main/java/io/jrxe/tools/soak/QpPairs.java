package io.jrxe.tools.soak;

import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.VerbsException;

import java.util.Random;

/** How the soak connects its RC QP pairs: each pair its own path MTU and max_rd_atomic, so a run covers several. */
final class QpPairs {
    private static final Mtu[] MTUS = {Mtu.MTU_1024, Mtu.MTU_256, Mtu.MTU_4096, Mtu.MTU_512, Mtu.MTU_2048};
    private static final int[] RD_ATOMIC = {16, 4, 1, 8, 2};
    /** Local ACK timeout 8: 4.096 us x 2^8, about 1 ms of virtual time before a retransmission. */
    static final int TIMEOUT = 8;
    static final int RETRY_CNT = 7;
    static final int RNR_RETRY = 7;
    /** A UD QP has no path MTU: its datagrams are limited by the port's active MTU (the soak's 4200-byte interface). */
    static final Mtu UD_MTU = Mtu.MTU_4096;
    /** The Q_Key of the soak's UD QPs. */
    static final int QKEY = 0x50A4_0D00;

    private QpPairs() {
    }

    static Mtu pathMtu(int pair) {
        return MTUS[pair % MTUS.length];
    }

    /** Takes UD QP pair {@code i} of both NICs to RTS, each with an address handle of the other for its lane. */
    static void connectUd(Lane ab, Lane ba, Random random) throws VerbsException {
        for (Lane lane : new Lane[] {ab, ba}) {
            Qp qp = lane.from.qps[lane.index];
            qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).qkey(QKEY));
            qp.modify(new QpAttributes().state(QpState.RTR));
            qp.modify(new QpAttributes().state(QpState.RTS).sqPsn(startPsn(random)));
            byte[] dgid = GidEntry.gidOf(lane.to.device.nic().resources().config().addresses().getFirst());
            lane.ahHandle = lane.from.pd.createAh(AddressVector.to(dgid, 1)).handle();
        }
    }

    /** Takes QP pair {@code i} of both NICs to RTS, each towards the other. */
    static void connect(SoakNic a, SoakNic b, int i, Random random) throws VerbsException {
        Mtu mtu = pathMtu(i);
        int rdAtomic = RD_ATOMIC[i % RD_ATOMIC.length];
        // Initial PSNs near the 2^24 wrap half of the time: the arithmetic modulo 2^24 gets exercised.
        int psnAB = startPsn(random);
        int psnBA = startPsn(random);
        modify(a, b, i, mtu, rdAtomic, psnBA, psnAB);
        modify(b, a, i, mtu, rdAtomic, psnAB, psnBA);
    }

    private static int startPsn(Random random) {
        return random.nextBoolean() ? 0xFFFFFF - random.nextInt(64) : random.nextInt(1 << 24);
    }

    /** RC's attributes; a UC QP has no retries, no reads or atomics: only the path, the PSNs and the right to be written. */
    private static void modify(SoakNic self, SoakNic peer, int i, Mtu mtu, int rdAtomic, int rqPsn, int sqPsn)
            throws VerbsException {
        Qp qp = self.qps[i];
        boolean rc = qp.type() == QpType.RC;
        qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(rc
                ? Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC | Access.FLUSH_GLOBAL
                : Access.REMOTE_WRITE));
        byte[] dgid = GidEntry.gidOf(peer.device.nic().resources().config().addresses().getFirst());
        QpAttributes rtr = new QpAttributes().state(QpState.RTR).av(AddressVector.to(dgid, 1)).pathMtu(mtu)
                .destQpn(peer.qps[i].qpNum()).rqPsn(rqPsn);
        QpAttributes rts = new QpAttributes().state(QpState.RTS).sqPsn(sqPsn);
        if (rc) {
            rtr.maxDestRdAtomic(rdAtomic).minRnrTimer(1);
            rts.timeout(TIMEOUT).retryCnt(RETRY_CNT).rnrRetry(RNR_RETRY).maxRdAtomic(rdAtomic);
        }
        qp.modify(rtr);
        qp.modify(rts);
    }
}
