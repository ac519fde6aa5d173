package io.jrxe.verbs.sim;

import io.jrxe.rnic.device.Counter;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.header.AethSyndrome;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.header.NakCode;
import io.jrxe.wire.opcode.Opcode;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static io.jrxe.verbs.sim.Ops.MS;
import static io.jrxe.verbs.sim.Ops.assertSameBytes;
import static io.jrxe.verbs.sim.Ops.fill;
import static io.jrxe.verbs.sim.Ops.rdma;
import static io.jrxe.verbs.sim.Ops.recv;
import static io.jrxe.verbs.sim.Ops.wr;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Packets a NIC must refuse: each is dropped (and counted under its reason) or, where the
 * protocol says so, NAKed; none changes the QP, which keeps working.
 */
class BadPacketTest {
    /** Sends one packet from A to B's QP, lets it arrive, and returns B's counter for the reason. */
    private static long injectToB(SimPair p, byte[] roce, Counter reason) {
        long before = p.counter(p.b, reason);
        Forge.inject(p, p.a, p.b, roce);
        p.run(MS, () -> p.counter(p.b, reason) > before);
        return p.counter(p.b, reason) - before;
    }

    /** After the bad packets, the pair still does a SEND and a READ correctly. */
    static void stillWorks(SimPair p) throws Exception {
        assertThat(p.a.qp.query().state()).isEqualTo(QpState.RTS);
        assertThat(p.b.qp.query().state()).isEqualTo(QpState.RTS);
        int sends = p.sendCompletions(p.a).size();
        int recvs = p.recvCompletions(p.b).size();
        fill(p.a.memory, 0, 5000, 99);
        fill(p.b.memory, 200_000, 3000, 98);
        p.b.qp.postRecv(recv(p.b, 100_000, 8000, 1234));
        p.a.qp.postSend(wr(p.a, WrOpcode.SEND, 0, 5000).next(rdma(p.a, WrOpcode.RDMA_READ, 300_000, 3000, p.b, 200_000)));
        p.awaitOn(p.a, sends + 2, 0, 100 * MS);
        p.awaitOn(p.b, 0, recvs + 1, 100 * MS);
        assertThat(p.sendCompletions(p.a).subList(sends, sends + 2)).extracting(WorkCompletion::status)
                .containsOnly(WcStatus.SUCCESS);
        assertThat(p.recvCompletions(p.b).get(recvs).wrId()).isEqualTo(1234);
        assertSameBytes(p.b.memory, 100_000, p.a.memory, 0, 5000);
        assertSameBytes(p.a.memory, 300_000, p.b.memory, 200_000, 3000);
    }

    @Test
    void truncatedAndMalformedPacketsAreDropped() throws Exception {
        try (SimPair p = new SimPair(1, new SimPair.Config(QpType.RC))) {
            int qpn = p.b.qp.qpNum();
            int psn = p.config.psn;
            // A WRITE ONLY cut right after its BTH: no room for the RETH.
            byte[] cut = java.util.Arrays.copyOf(Forge.packet(Opcode.RC_RDMA_WRITE_ONLY, qpn, psn, 0), 12 + 4);
            assertThat(injectToB(p, cut, Counter.DROP_MALFORMED)).isEqualTo(1);
            // An ACK (no payload allowed) with 4 bytes of payload.
            assertThat(injectToB(p, java.util.Arrays.copyOf(Forge.ack(qpn, psn, 0), 24), Counter.DROP_MALFORMED))
                    .isEqualTo(1);
            // A pad count larger than the payload.
            byte[] pad = Forge.packet(Opcode.RC_SEND_ONLY, qpn, psn, 0);
            new BthFlyweight().wrap(ByteBuffer.wrap(pad), 0).padCount(3);
            assertThat(injectToB(p, pad, Counter.DROP_MALFORMED)).isEqualTo(1);
            // A transport version other than 0 (IBTA 9.2: TVer 0; rxe's hdr_check drops others).
            byte[] tver = Forge.packet(Opcode.RC_SEND_ONLY, qpn, psn, 4);
            new BthFlyweight().wrap(ByteBuffer.wrap(tver), 0).transportVersion(1);
            assertThat(injectToB(p, tver, Counter.DROP_MALFORMED)).isEqualTo(1);
            assertThat(p.recvCompletions(p.b)).isEmpty();
            assertThat(p.counter(p.b, Counter.SENT_PKTS)).as("nothing answered").isZero();
            stillWorks(p);
        }
    }

    @Test
    void packetsForNoOneOrTheWrongQpAreDropped() throws Exception {
        try (SimPair p = new SimPair(2, new SimPair.Config(QpType.RC))) {
            int qpn = p.b.qp.qpNum();
            int psn = p.config.psn;
            assertThat(injectToB(p, Forge.packet(Opcode.RC_SEND_ONLY, 0x777, psn, 4), Counter.DROP_UNKNOWN_QPN)).isEqualTo(1);
            byte[] reserved = Forge.packet(Opcode.RC_SEND_ONLY, qpn, psn, 4);
            reserved[0] = 0x15; // reserved RC opcode
            assertThat(injectToB(p, reserved, Counter.DROP_UNKNOWN_OPCODE)).isEqualTo(1);
            // A UC opcode to an RC QP, and a UD one.
            assertThat(injectToB(p, Forge.packet(Opcode.UC_SEND_ONLY, qpn, psn, 4), Counter.DROP_WRONG_TRANSPORT))
                    .isEqualTo(1);
            assertThat(injectToB(p, Forge.packet(Opcode.UD_SEND_ONLY, qpn, psn, 4), Counter.DROP_WRONG_TRANSPORT))
                    .isEqualTo(1);
            byte[] pkey = Forge.packet(Opcode.RC_SEND_ONLY, qpn, psn, 4);
            new BthFlyweight().wrap(ByteBuffer.wrap(pkey), 0).pkey(0x8001);
            assertThat(injectToB(p, pkey, Counter.DROP_BAD_PKEY)).isEqualTo(1);
            assertThat(p.counter(p.b, Counter.SENT_PKTS)).isZero();
            stillWorks(p);
        }
    }

    @Test
    void aPacketWithABadIcrcIsDropped() throws Exception {
        try (SimPair p = new SimPair(3, new SimPair.Config(QpType.RC))) {
            p.filter(Forge.CORRUPTING);
            assertThat(injectToB(p, Forge.packet(Opcode.RC_SEND_ONLY, p.b.qp.qpNum(), p.config.psn, 40),
                    Counter.DROP_BAD_ICRC)).isEqualTo(1);
            p.filter(null);
            stillWorks(p);
        }
    }

    @Test
    void aUcOpcodeInPlaceOfAnRcOneIsDroppedAndTheRetryGoesThrough() throws Exception {
        try (SimPair p = new SimPair(4, new SimPair.Config(QpType.RC).timeout(8))) {
            Wire.on(p).rewrite(1, Wire.opcode(Opcode.RC_RDMA_WRITE_ONLY),
                    b -> b[0] = (byte) Opcode.UC_RDMA_WRITE_ONLY.code());
            fill(p.a.memory, 0, 100, 4);
            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 100, p.b, 8192));
            p.awaitOn(p.a, 1, 0, 100 * MS);
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(p.counter(p.b, Counter.DROP_WRONG_TRANSPORT)).isEqualTo(1);
            assertSameBytes(p.b.memory, 8192, p.a.memory, 0, 100);
        }
    }

    @Test
    void aPsnFarAheadIsNakedOnceAndOneFarBehindIsAcknowledgedAsADuplicate() throws Exception {
        try (SimPair p = new SimPair(5, new SimPair.Config(QpType.RC))) {
            Wire wire = Wire.on(p);
            int qpn = p.b.qp.qpNum();
            int epsn = p.config.psn;
            Forge.inject(p, p.a, p.b, Forge.packet(Opcode.RC_SEND_ONLY, qpn, epsn + 3_000_000, 4));
            Forge.inject(p, p.a, p.b, Forge.packet(Opcode.RC_SEND_ONLY, qpn, epsn + 3_000_001, 4));
            p.run(MS, () -> p.counter(p.b, Counter.OUT_OF_SEQ_REQUEST) == 2 && p.counter(p.a, Counter.DROP_GHOST_ACK) == 1);
            assertThat(p.counter(p.b, Counter.OUT_OF_SEQ_REQUEST)).isEqualTo(2);
            var naks = wire.matching(Wire.fromSide(p.b));
            assertThat(naks).as("one sequence NAK until the expected PSN arrives").hasSize(1);
            assertThat(naks.getFirst().syndrome()).isEqualTo(AethSyndrome.nak(NakCode.PSN_SEQUENCE_ERROR));
            assertThat(naks.getFirst().psn()).isEqualTo(epsn);
            assertThat(p.counter(p.a, Counter.DROP_GHOST_ACK)).as("A sent nothing: the NAK is a ghost to it").isEqualTo(1);

            Forge.inject(p, p.a, p.b, Forge.packet(Opcode.RC_SEND_ONLY, qpn, (epsn - 5_000_000) & 0xFFFFFF, 4));
            p.run(MS, () -> p.counter(p.b, Counter.DUPLICATE_REQUEST) == 1 && wire.matching(Wire.fromSide(p.b)).size() == 2);
            assertThat(p.counter(p.b, Counter.DUPLICATE_REQUEST)).isEqualTo(1);
            Wire.Packet ack = wire.matching(Wire.fromSide(p.b)).get(1);
            assertThat(AethSyndrome.isAck(ack.syndrome())).isTrue();
            assertThat(ack.psn()).as("re-acknowledges the last PSN it executed").isEqualTo((epsn - 1) & 0xFFFFFF);
            assertThat(p.recvCompletions(p.b)).isEmpty();
            stillWorks(p);
        }
    }

    @Test
    void packetsForAQpNotYetReadyAreDropped() throws Exception {
        try (SimPair p = new SimPair(6, new SimPair.Config(QpType.RC))) {
            io.jrxe.verbs.Qp fresh = p.b.pd.createQp(new io.jrxe.verbs.QpInitAttributes(QpType.RC, p.b.sendCq, p.b.recvCq,
                    null, p.config.caps, false));
            assertThat(injectToB(p, Forge.packet(Opcode.RC_SEND_ONLY, fresh.qpNum(), 0, 4), Counter.DROP_QP_STATE))
                    .isEqualTo(1);
            fresh.modify(new io.jrxe.verbs.QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(0));
            assertThat(injectToB(p, Forge.packet(Opcode.RC_SEND_ONLY, fresh.qpNum(), 0, 4), Counter.DROP_QP_STATE))
                    .isEqualTo(1);
        }
    }
}
