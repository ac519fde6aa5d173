package io.jrxe.verbs.alloc;

import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests that arrive in one burst are answered by one ACK per QP, for the newest PSN; a response
 * of another kind sends the ACK owed so far first. Over a {@link DirectLink}, whatever is queued
 * arrives as one burst, so the packet counts are exact.
 */
class AckCoalescingTest {
    private DirectPair pair;
    private DirectLink link;
    private DirectSide a;
    private DirectSide b;

    @BeforeEach
    void connect() throws Exception {
        pair = DirectPair.connected("ack", "10.9.1.1", "10.9.1.2", 4200);
        link = pair.link;
        a = pair.a;
        b = pair.b;
    }

    @AfterEach
    void close() {
        pair.close();
    }

    @Test
    void tenSendsInOneBurstGetOneAck() throws Exception {
        postReceives(10);
        for (int i = 0; i < 10; i++) {
            a.qp.postSend(send(i, WrOpcode.SEND));
        }
        link.runUntilIdle();

        assertThat(completions(a)).containsExactly("0 SEND SUCCESS", "1 SEND SUCCESS", "2 SEND SUCCESS", "3 SEND SUCCESS",
                "4 SEND SUCCESS", "5 SEND SUCCESS", "6 SEND SUCCESS", "7 SEND SUCCESS", "8 SEND SUCCESS", "9 SEND SUCCESS");
        assertThat(completions(b)).hasSize(10).allMatch(c -> c.endsWith("RECV SUCCESS"));
        assertThat(b.ctx.counters().get("sent_pkts")).as("ACKs the responder sent").isEqualTo(1);
        assertThat(a.ctx.counters().get("rcvd_pkts")).isEqualTo(1);
    }

    @Test
    void aReadResponseFollowsTheAckOwedBeforeIt() throws Exception {
        postReceives(3);
        a.qp.postSend(send(0, WrOpcode.SEND));
        a.qp.postSend(send(1, WrOpcode.SEND));
        link.runTasks(); // SEND 1 leaves as the last one posted, asking for an ACK; nothing is delivered yet
        a.qp.postSend(send(2, WrOpcode.RDMA_READ));
        a.qp.postSend(send(3, WrOpcode.SEND));
        link.runUntilIdle();

        assertThat(completions(a)).containsExactly("0 SEND SUCCESS", "1 SEND SUCCESS", "2 RDMA_READ SUCCESS",
                "3 SEND SUCCESS");
        // The ACK of the first two SENDs, the READ response, then the ACK of the last SEND at the burst's end.
        assertThat(b.ctx.counters().get("sent_pkts")).isEqualTo(3);
    }

    private void postReceives(int n) throws Exception {
        RecvWr recv = new RecvWr(1);
        recv.sgl.add(b.memory.address(), 4096, b.mr.lkey());
        for (int i = 0; i < n; i++) {
            b.qp.postRecv(recv);
        }
    }

    private SendWr send(long wrId, WrOpcode opcode) {
        SendWr wr = new SendWr(1);
        wr.wrId = wrId;
        wr.opcode = opcode;
        wr.flags = SendWr.SIGNALED;
        wr.sgl.add(a.memory.address() + 8192, 64, a.mr.lkey());
        wr.remoteAddr = b.memory.address() + 65536;
        wr.rkey = b.mr.rkey();
        return wr;
    }

    private static List<String> completions(DirectSide side) {
        WorkCompletion[] wcs = new WorkCompletion[32];
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
        List<String> out = new ArrayList<>();
        int n = side.cq.poll(wcs);
        for (int i = 0; i < n; i++) {
            out.add(wcs[i].wrId() + " " + wcs[i].opcode() + " " + wcs[i].status());
        }
        return out;
    }
}
