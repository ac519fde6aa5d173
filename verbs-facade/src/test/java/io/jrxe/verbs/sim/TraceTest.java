package io.jrxe.verbs.sim;

import io.jrxe.rnic.engine.TraceEvent;
import io.jrxe.rnic.engine.TraceListener;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.psn.Psn;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.jrxe.verbs.sim.Ops.MS;
import static io.jrxe.verbs.sim.Ops.id;
import static io.jrxe.verbs.sim.Ops.recv;
import static io.jrxe.verbs.sim.Ops.wr;
import static org.assertj.core.api.Assertions.assertThat;

/** The teaching trace: a work request's trip through the NIC, event by event, in order. */
class TraceTest {
    record Event(TraceEvent event, int qpn, long wrId, int psn, int opcode, long value) {
    }

    static final class Recorder implements TraceListener {
        /** Written by whichever thread runs the NIC (on the shared-memory wire, the test's or the standby's). */
        final List<Event> events = new CopyOnWriteArrayList<>();

        @Override
        public void event(TraceEvent event, int qpn, long wrId, int psn, int opcode, long value) {
            events.add(new Event(event, qpn, wrId, psn, opcode, value));
        }

        /** The QP's events but its task's turns, which depend on how work is batched. */
        List<TraceEvent> kinds(int qpn) {
            return events.stream().filter(e -> e.qpn == qpn && e.event != TraceEvent.TASK_RUN).map(Event::event).toList();
        }

        List<TraceEvent> kindsWithTurns(int qpn) {
            return events.stream().filter(e -> e.qpn == qpn).map(Event::event).toList();
        }
    }

    @Test
    void aSendGoesPostedFetchedSentAckedCompleted() throws Exception {
        try (SimPair p = new SimPair(1, new SimPair.Config(QpType.RC))) {
            Recorder ra = new Recorder();
            Recorder rb = new Recorder();
            SimPair.nic(p.a).trace(ra);
            SimPair.nic(p.b).trace(rb);
            p.b.qp.postRecv(recv(p.b, 100_000, 4096, 9));
            p.a.qp.postSend(id(wr(p.a, WrOpcode.SEND, 0, 3000), 42));
            p.awaitCompletions(1, 1, 10 * MS);

            int qpn = p.a.qp.qpNum();
            assertThat(ra.kindsWithTurns(qpn)).as("the doorbell runs the QP's task, which fetches; the ACK runs it again, which completes")
                    .containsSubsequence(TraceEvent.POSTED, TraceEvent.TASK_RUN, TraceEvent.FETCHED, TraceEvent.ACK_RECEIVED,
                            TraceEvent.TASK_RUN, TraceEvent.COMPLETED);
            assertThat(ra.kinds(qpn)).containsExactly(TraceEvent.POSTED, TraceEvent.DOORBELL, TraceEvent.FETCHED,
                    TraceEvent.TRANSLATED, TraceEvent.PACKET_SENT, TraceEvent.TRANSLATED, TraceEvent.PACKET_SENT,
                    TraceEvent.TRANSLATED, TraceEvent.PACKET_SENT, TraceEvent.PACKET_RECEIVED, TraceEvent.ACK_RECEIVED,
                    TraceEvent.COMPLETED, TraceEvent.CQE_WRITTEN);
            assertThat(ra.events.get(1).value()).as("the doorbell carries the SQ's producer index: one WQE posted").isEqualTo(1);
            assertThat(ra.events.getLast().value()).as("the first CQE goes to the CQ's index 0").isZero();
            Event posted = ra.events.getFirst();
            assertThat(posted.wrId()).isEqualTo(42);
            assertThat(posted.opcode()).isEqualTo(WrOpcode.SEND.ordinal());
            assertThat(posted.value()).isEqualTo(3000);
            List<Event> sent = ra.events.stream().filter(e -> e.event() == TraceEvent.PACKET_SENT).toList();
            assertThat(sent).extracting(Event::wrId).containsOnly(42L);
            assertThat(sent).extracting(Event::psn).containsExactly(p.config.psn, p.config.psn + 1, p.config.psn + 2);
            assertThat(sent).extracting(Event::opcode).containsExactly(Opcode.RC_SEND_FIRST.code(),
                    Opcode.RC_SEND_MIDDLE.code(), Opcode.RC_SEND_LAST.code());
            Event completed = ra.events.get(ra.events.size() - 2);
            assertThat(completed.wrId()).isEqualTo(42);
            assertThat(completed.value()).isEqualTo(WcStatus.SUCCESS.ordinal());

            assertThat(rb.kinds(p.b.qp.qpNum())).containsExactly(TraceEvent.PACKET_RECEIVED, TraceEvent.PACKET_RECEIVED,
                    TraceEvent.PACKET_RECEIVED, TraceEvent.COMPLETED, TraceEvent.CQE_WRITTEN);
            assertThat(rb.events.getLast().wrId()).isEqualTo(9);
        }
    }

    @Test
    void aLostPacketShowsAsNakAndRetransmit() throws Exception {
        try (SimPair p = new SimPair(2, new SimPair.Config(QpType.RC))) {
            Recorder ra = new Recorder();
            SimPair.nic(p.a).trace(ra);
            Wire.on(p).drop(1, pk -> pk.from(p.a) && pk.psn() == Psn.add(p.config.psn, 1));
            p.a.qp.postSend(Ops.rdma(p.a, WrOpcode.RDMA_WRITE, 0, 3000, p.b, 0));
            p.awaitOn(p.a, 1, 0, 10 * MS);
            List<TraceEvent> kinds = ra.kinds(p.a.qp.qpNum());
            assertThat(kinds).containsSubsequence(TraceEvent.PACKET_SENT, TraceEvent.NAK_RECEIVED, TraceEvent.RETRANSMIT,
                    TraceEvent.PACKET_SENT, TraceEvent.ACK_RECEIVED, TraceEvent.COMPLETED);
            Event retransmit = ra.events.stream().filter(e -> e.event() == TraceEvent.RETRANSMIT).findFirst().orElseThrow();
            assertThat(retransmit.psn()).isEqualTo(Psn.add(p.config.psn, 1));
        }
    }

    @Test
    void aDroppedPacketIsTracedWithItsReason() throws Exception {
        try (SimPair p = new SimPair(3, new SimPair.Config(QpType.RC))) {
            Recorder ra = new Recorder();
            SimPair.nic(p.a).trace(ra);
            Forge.inject(p, p.b, p.a, Forge.ack(p.a.qp.qpNum(), 5, 0));
            p.run(MS, () -> ra.events.size() >= 2);
            assertThat(ra.events).extracting(Event::event).containsExactly(TraceEvent.PACKET_RECEIVED, TraceEvent.DROPPED);
            assertThat(ra.events.getLast().value()).isEqualTo(io.jrxe.wire.port.DropReason.GHOST_ACK.ordinal());
        }
    }

    @Test
    void withNoListenerNothingIsCalled() throws Exception {
        try (SimPair p = new SimPair(4, new SimPair.Config(QpType.RC))) {
            Recorder ra = new Recorder();
            SimPair.nic(p.a).trace(ra);
            SimPair.nic(p.a).trace(null);
            p.b.qp.postRecv(recv(p.b, 0, 100, 1));
            p.a.qp.postSend(wr(p.a, WrOpcode.SEND, 0, 100));
            p.awaitCompletions(1, 1, 10 * MS);
            assertThat(ra.events).isEmpty();
        }
    }
}
