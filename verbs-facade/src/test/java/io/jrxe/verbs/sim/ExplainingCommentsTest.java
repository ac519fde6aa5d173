package io.jrxe.verbs.sim;

import io.jrxe.verbs.AsyncEvent;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.port.PacketTap;
import io.jrxe.wire.psn.Psn;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CopyOnWriteArrayList;
import java.util.List;

import static io.jrxe.verbs.sim.Ops.MS;
import static io.jrxe.verbs.sim.Ops.rdma;
import static org.assertj.core.api.Assertions.assertThat;

/** Captures that explain themselves: a packet sent again says which retry and why; a NAK says the responder's precise reason. */
class ExplainingCommentsTest {
    /** The comments of the packets a side sent, in order (null for a packet without one). */
    private static List<String> sentComments(SimPair p, SimPair.Side side) {
        List<String> comments = new CopyOnWriteArrayList<>(); // written by whichever thread runs the NIC
        PacketTap tap = (d, s, t, sp, dp, id, roce, off, len, ts, c) -> {
            if (d == PacketTap.Direction.SENT) {
                comments.add(c);
            }
        };
        SimPair.nic(side).port().tap(tap);
        return comments;
    }

    @Test
    void aPacketSentAgainAfterASequenceNakSaysSo() throws Exception {
        try (SimPair p = new SimPair(2, new SimPair.Config(QpType.RC))) {
            List<String> comments = sentComments(p, p.a);
            int lost = Psn.add(p.config.psn, 1);
            Wire.on(p).drop(1, pk -> pk.from(p.a) && pk.psn() == lost);
            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 3000, p.b, 0));
            p.awaitOn(p.a, 1, 0, 10 * MS);
            assertThat(comments.subList(0, 3)).as("the first sending").containsOnlyNulls();
            assertThat(comments).contains(String.format("retransmission 1 of PSN 0x%06x after NAK sequence error", lost));
        }
    }

    @Test
    void aPacketSentAgainAfterTheAckTimerSaysSo() throws Exception {
        try (SimPair p = new SimPair(3, new SimPair.Config(QpType.RC))) {
            List<String> comments = sentComments(p, p.a);
            Wire.on(p).drop(1, Wire.opcode(Opcode.RC_ACKNOWLEDGE));
            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 100, p.b, 0));
            p.awaitOn(p.a, 1, 0, 1000 * MS);
            assertThat(comments).containsExactly(null,
                    String.format("retransmission 1 of PSN 0x%06x after ACK timeout", p.config.psn));
        }
    }

    @Test
    void aNakAndTheRespondersEventNameTheRefusedKeyAndWhy() throws Exception {
        try (SimPair p = new SimPair(4, new SimPair.Config(QpType.RC))) {
            List<String> comments = sentComments(p, p.b);
            SendWr bad = rdma(p.a, WrOpcode.RDMA_WRITE, 0, 8, p.b, 64);
            bad.rkey = p.b.mr.rkey() + 0x100; // another index: no such key
            p.a.qp.postSend(bad);
            p.awaitOn(p.a, 1, 0, 10 * MS);
            assertThat(p.sendCompletions(p.a)).extracting(WorkCompletion::status).containsExactly(WcStatus.REM_ACCESS_ERR);
            String why = String.format("R_Key 0x%08x (index %d, variant 0x%02x): no MR or MW has this key's index", bad.rkey,
                    bad.rkey >>> 8, bad.rkey & 0xFF);
            assertThat(comments).containsExactly("NAK remote access error: " + why);
            AsyncEvent event = p.b.ctx.awaitAsyncEvent(10, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(event).isNotNull();
            assertThat(event.toString()).contains(why);
        }
    }
}
