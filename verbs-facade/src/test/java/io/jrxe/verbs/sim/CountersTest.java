package io.jrxe.verbs.sim;

import io.jrxe.rnic.device.Counter;
import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.Ah;
import io.jrxe.wire.opcode.Opcode;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.jrxe.verbs.sim.Ops.MS;
import static io.jrxe.verbs.sim.Ops.chain;
import static io.jrxe.verbs.sim.Ops.fill;
import static io.jrxe.verbs.sim.Ops.id;
import static io.jrxe.verbs.sim.Ops.rdma;
import static io.jrxe.verbs.sim.Ops.recv;
import static io.jrxe.verbs.sim.Ops.wr;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * rxe's hw_counters move where rxe moves them: sent_pkts and rcvd_pkts per packet, sent_bytes and
 * rcvd_bytes by the packets' bytes from their IP header on (rcvd_pkts and rcvd_bytes
 * only for packets that passed the header and ICRC checks, as rxe_rcv counts), rdma_sends per
 * completed SEND whatever its status, rdma_recvs per successful message. The error counters are checked in the tests of their errors
 * (RetransmissionTest, AckTimeoutTest, RnrTest).
 */
class CountersTest {
    @Test
    void packetCountersEqualWhatTheWireCarried() throws Exception {
        try (SimPair p = new SimPair(1, new SimPair.Config(QpType.RC))) {
            Wire wire = Wire.on(p);
            fill(p.a.memory, 0, 20_000, 1);
            p.b.qp.postRecv(chain(recv(p.b, 100_000, 8000, 1), recv(p.b, 110_000, 8000, 2), recv(p.b, 120_000, 0, 3)));
            SendWr chain = chain(id(wr(p.a, WrOpcode.SEND, 0, 5000), 1),
                    rdma(p.a, WrOpcode.RDMA_WRITE, 0, 3000, p.b, 200_000),
                    rdma(p.a, WrOpcode.RDMA_READ, 50_000, 4000, p.b, 200_000),
                    id(wr(p.a, WrOpcode.SEND_WITH_IMM, 0, 10), 4),
                    rdma(p.a, WrOpcode.ATOMIC_FETCH_AND_ADD, 60_000, 8, p.b, 400_000),
                    id(rdma(p.a, WrOpcode.RDMA_WRITE_WITH_IMM, 0, 100, p.b, 300_000), 6));
            p.a.qp.postSend(chain);
            p.b.qp.postSend(rdma(p.b, WrOpcode.RDMA_WRITE, 0, 2500, p.a, 500_000));
            p.awaitCompletions(7, 3, 100 * MS);
            // The last ACKs may still be on their way; what the wire carried has then arrived.
            p.run(MS, () -> p.counter(p.a, Counter.RCVD_PKTS) == wire.count(Wire.fromSide(p.b))
                    && p.counter(p.b, Counter.RCVD_PKTS) == wire.count(Wire.fromSide(p.a)));
            assertThat(p.sendCompletions(p.a)).extracting(WorkCompletion::status).containsOnly(WcStatus.SUCCESS);
            // As rxe's sender completions (seen against rxe0 with jrxe compare): WITH_IMM operations say so, data 0.
            for (WorkCompletion c : p.sendCompletions(p.a)) {
                boolean withImm = c.wrId() == 4 || c.wrId() == 6;
                assertThat(c.wcFlags() & WorkCompletion.WITH_IMM).as("wr %d", c.wrId()).isEqualTo(withImm ? WorkCompletion.WITH_IMM : 0);
                assertThat(c.immData()).isZero();
            }

            long fromA = wire.count(Wire.fromSide(p.a));
            long fromB = wire.count(Wire.fromSide(p.b));
            assertThat(p.counter(p.a, Counter.SENT_PKTS)).isEqualTo(fromA);
            assertThat(p.counter(p.b, Counter.SENT_PKTS)).isEqualTo(fromB);
            assertThat(p.counter(p.b, Counter.RCVD_PKTS)).isEqualTo(fromA);
            assertThat(p.counter(p.a, Counter.RCVD_PKTS)).isEqualTo(fromB);
            // sent_bytes and rcvd_bytes: each packet from its IPv4 header (20 bytes) and UDP header (8) to its ICRC.
            long bytesFromA = wire.matching(Wire.fromSide(p.a)).stream().mapToLong(pk -> pk.bytes().length + 28).sum();
            long bytesFromB = wire.matching(Wire.fromSide(p.b)).stream().mapToLong(pk -> pk.bytes().length + 28).sum();
            assertThat(p.counter(p.a, Counter.SENT_BYTES)).isEqualTo(bytesFromA).as("more than the payloads a sent").isGreaterThan(5000 + 3000 + 10 + 8 + 100);
            assertThat(p.counter(p.b, Counter.RCVD_BYTES)).isEqualTo(bytesFromA);
            assertThat(p.counter(p.b, Counter.SENT_BYTES)).isEqualTo(bytesFromB);
            assertThat(p.counter(p.a, Counter.RCVD_BYTES)).isEqualTo(bytesFromB);
            // SEND (5 packets) + WRITE (3) + READ request + SEND_WITH_IMM + FETCH_ADD + WRITE_WITH_IMM
            assertThat(fromA - wire.count(pk -> pk.from(p.a) && pk.is(Opcode.RC_ACKNOWLEDGE))).isEqualTo(12);

            assertThat(p.counter(p.b, Counter.RDMA_RECVS)).as("one per successful receive completion")
                    .isEqualTo(p.recvCompletions(p.b).size()).isEqualTo(3);
            assertThat(p.counter(p.a, Counter.RDMA_SENDS)).as("the two SENDs").isEqualTo(2);
            assertThat(p.counter(p.a, Counter.RDMA_RECVS)).isZero();
            for (Counter c : new Counter[] {Counter.DUPLICATE_REQUEST, Counter.OUT_OF_SEQ_REQUEST, Counter.RCVD_RNR_ERR,
                    Counter.SEND_RNR_ERR, Counter.RCVD_SEQ_ERR, Counter.RETRY_EXCEEDED_ERR, Counter.COMPLETER_RETRY_ERR}) {
                assertThat(p.counter(p.a, c) + p.counter(p.b, c)).as(c.label()).isZero();
            }
        }
    }

    @Test
    void aSendThatFailsIsCountedAsRxeCountsIt() throws Exception {
        try (SimPair p = new SimPair(1, new SimPair.Config(QpType.RC))) {
            p.b.qp.postRecv(recv(p.b, 100_000, 16, 1));
            p.a.qp.postSend(id(wr(p.a, WrOpcode.SEND, 0, 64), 1));
            p.awaitCompletions(1, 1, 100 * MS);
            assertThat(p.sendCompletions(p.a)).extracting(WorkCompletion::status).containsExactly(WcStatus.REM_INV_REQ_ERR);
            assertThat(p.counter(p.a, Counter.RDMA_SENDS)).as("rxe counts a SEND whatever its status").isEqualTo(1);
        }
    }

    @Test
    void rcvdPktsLeavesOutPacketsDroppedBeforeTheyReachAQp() throws Exception {
        try (SimPair p = new SimPair(2, new SimPair.Config(QpType.RC))) {
            Forge.inject(p, p.a, p.b, Forge.packet(Opcode.RC_SEND_ONLY, 0x777, 0, 4)); // no such QP
            Forge.inject(p, p.a, p.b, Forge.packet(Opcode.UC_SEND_ONLY, p.b.qp.qpNum(), 0, 4)); // wrong transport
            p.filter(Forge.CORRUPTING);
            Forge.inject(p, p.a, p.b, Forge.packet(Opcode.RC_SEND_ONLY, p.b.qp.qpNum(), 0, 4)); // bad ICRC
            p.run(MS, () -> p.counter(p.b, Counter.DROP_UNKNOWN_QPN) + p.counter(p.b, Counter.DROP_WRONG_TRANSPORT)
                    + p.counter(p.b, Counter.DROP_BAD_ICRC) == 3);
            p.filter(null);
            assertThat(p.counter(p.b, Counter.DROP_UNKNOWN_QPN)).isEqualTo(1);
            assertThat(p.counter(p.b, Counter.DROP_WRONG_TRANSPORT)).isEqualTo(1);
            assertThat(p.counter(p.b, Counter.DROP_BAD_ICRC)).isEqualTo(1);
            // rxe_rcv counts RCVD_PKTS only after hdr_check and the ICRC check passed.
            assertThat(p.counter(p.b, Counter.RCVD_PKTS)).isZero();

            // A packet that reaches its QP counts, even when the QP then refuses it.
            Forge.inject(p, p.a, p.b, Forge.packet(Opcode.RC_SEND_ONLY, p.b.qp.qpNum(), p.config.psn + 100, 4));
            p.run(MS, () -> p.counter(p.b, Counter.RCVD_PKTS) > 0);
            assertThat(p.counter(p.b, Counter.RCVD_PKTS)).isEqualTo(1);
        }
    }

    @Test
    void aUdDatagramWithAWrongQkeyIsNotReceivedAsRxeCountsIt() throws Exception {
        try (SimPair p = new SimPair(3, new SimPair.Config(QpType.UD))) {
            Ah ah = p.a.pd.createAh(AddressVector.to(GidEntry.gidOf(p.b.address.address()), 1));
            p.b.qp.postRecv(recv(p.b, 0, 1000, 1));
            SendWr w = wr(p.a, WrOpcode.SEND, 0, 10);
            w.ahHandle = SimPair.ahHandle(p.a, ah);
            w.remoteQpn = p.b.qp.qpNum();
            w.remoteQkey = 0x2222;
            p.a.qp.postSend(w);
            p.run(MS, () -> p.counter(p.b, Counter.DROP_BAD_QKEY) > 0);
            assertThat(p.counter(p.a, Counter.SENT_PKTS)).isEqualTo(1);
            assertThat(p.counter(p.a, Counter.RDMA_SENDS)).isEqualTo(1);
            assertThat(p.counter(p.b, Counter.DROP_BAD_QKEY)).isEqualTo(1);
            // rxe checks the Q_Key in hdr_check, before RCVD_PKTS is counted.
            assertThat(p.counter(p.b, Counter.RCVD_PKTS)).isZero();
            assertThat(p.counter(p.b, Counter.RDMA_RECVS)).isZero();
        }
    }

    @Test
    void theCountersAreListedUnderRxesNames() throws Exception {
        try (SimPair p = new SimPair(4, new SimPair.Config(QpType.RC))) {
            Map<String, Long> counters = p.a.ctx.counters();
            assertThat(counters.keySet()).startsWith("sent_pkts", "rcvd_pkts", "duplicate_request", "out_of_seq_request",
                    "rcvd_rnr_err", "send_rnr_err", "rcvd_seq_err", "ack_deferred", "retry_exceeded_err",
                    "retry_rnr_exceeded_err", "completer_retry_err", "send_err", "link_downed", "rdma_sends", "rdma_recvs");
        }
    }
}
