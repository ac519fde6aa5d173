package io.jrxe.verbs.alloc;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicExecutor;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.facade.Verbs;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.wire.port.PeerAddress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests that arrive in one burst are answered by one ACK per QP, for the newest PSN; a response
 * of another kind sends the ACK owed so far first. Over a {@link DirectLink}, whatever is queued
 * arrives as one burst, so the packet counts are exact.
 */
class AckCoalescingTest {
    private final Arena arena = Arena.ofConfined();
    private EmulatedDevice da;
    private EmulatedDevice db;
    private DirectLink link;
    private DirectSide a;
    private DirectSide b;

    @BeforeEach
    void connect() throws Exception {
        InetAddress ia = InetAddress.getByName("10.9.1.1");
        InetAddress ib = InetAddress.getByName("10.9.1.2");
        link = new DirectLink(PeerAddress.of(ia), PeerAddress.of(ib));
        da = Verbs.emulated().create(DeviceConfig.of("ack-a" + System.nanoTime(), ia).withInterfaceMtu(4200),
                NicExecutor.INLINE, link.a, link);
        db = Verbs.emulated().create(DeviceConfig.of("ack-b" + System.nanoTime(), ib).withInterfaceMtu(4200),
                NicExecutor.INLINE, link.b, link);
        a = new DirectSide(da, arena);
        b = new DirectSide(db, arena);
        a.connect(b, ib);
        b.connect(a, ia);
    }

    @AfterEach
    void close() {
        Verbs.emulated().remove(da);
        Verbs.emulated().remove(db);
        arena.close();
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
