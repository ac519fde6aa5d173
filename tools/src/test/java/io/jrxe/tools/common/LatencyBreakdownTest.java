package io.jrxe.tools.common;

import io.jrxe.rnic.engine.TraceEvent;
import io.jrxe.tools.common.LatencyBreakdown.Stage;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.opcode.Opcode;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

class LatencyBreakdownTest {
    private static final int QPN = 0x11;

    /** One signaled SEND's trip as the engines trace it, and the peer's SEND arriving. */
    private static void exchange(LatencyBreakdown b) {
        b.event(TraceEvent.POSTED, QPN, 1, -1, WrOpcode.SEND.ordinal(), 64);
        b.event(TraceEvent.TASK_RUN, QPN, 0, -1, -1, 0);
        b.event(TraceEvent.FETCHED, QPN, 1, 10, WrOpcode.SEND.ordinal(), 64);
        b.event(TraceEvent.PACKET_SENT, QPN, 1, 10, Opcode.RC_SEND_ONLY.code(), 64);
        b.event(TraceEvent.PACKET_RECEIVED, QPN, 0, 10, Opcode.RC_ACKNOWLEDGE.code(), 20);
        b.event(TraceEvent.TASK_RUN, QPN, 0, -1, -1, 0);
        b.event(TraceEvent.COMPLETED, QPN, 1, -1, WcOpcode.SEND.ordinal(), WcStatus.SUCCESS.ordinal());
        b.sendPolled();
        b.event(TraceEvent.PACKET_RECEIVED, QPN, 0, 20, Opcode.RC_SEND_ONLY.code(), 84);
        b.event(TraceEvent.COMPLETED, QPN, 2, -1, WcOpcode.RECV.ordinal(), WcStatus.SUCCESS.ordinal());
        b.receivePolled();
    }

    @Test
    void everyStageOfAnExchangeIsCountedOnce() {
        LatencyBreakdown b = new LatencyBreakdown();
        for (int i = 0; i < 3; i++) {
            exchange(b);
        }
        for (Stage s : new Stage[] {Stage.POST_TO_TASK, Stage.TASK_TO_FETCH, Stage.FETCH_TO_SENT, Stage.SENT_TO_RESPONSE,
                Stage.RESPONSE_TO_CQE, Stage.CQE_TO_POLLED, Stage.REQUEST_TO_RECV_CQE, Stage.RECV_CQE_TO_POLLED}) {
            assertThat(b.histogram(s).getTotalCount()).as(s.name()).isEqualTo(3);
        }
        assertThat(b.histogram(Stage.REQUEST_TO_SEEN).getTotalCount()).as("no WRITE was polled for").isZero();
    }

    @Test
    void aTaskRunWithNothingPostedAndAResponseWithNothingSentCountNothing() {
        LatencyBreakdown b = new LatencyBreakdown();
        b.event(TraceEvent.TASK_RUN, QPN, 0, -1, -1, 0);
        b.event(TraceEvent.PACKET_RECEIVED, QPN, 0, 10, Opcode.RC_ACKNOWLEDGE.code(), 20);
        b.sendPolled();
        for (Stage s : Stage.values()) {
            assertThat(b.histogram(s).getTotalCount()).as(s.name()).isZero();
        }
    }

    @Test
    void theTableHasARowPerStageThatSawEvents() {
        LatencyBreakdown b = new LatencyBreakdown();
        exchange(b);
        StringWriter text = new StringWriter();
        b.print(new PrintWriter(text), "jrxe0");
        assertThat(text.toString()).contains("latency breakdown on jrxe0", "post -> the NIC runs the QP",
                "send CQE -> polled by the program", "receive CQE -> polled by the program")
                .doesNotContain("its bytes seen by the program");
        assertThat(text.toString().lines()).hasSize(2 + 8);
    }
}
