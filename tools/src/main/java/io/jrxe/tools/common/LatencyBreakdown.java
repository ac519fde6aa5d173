package io.jrxe.tools.common;

import io.jrxe.rnic.engine.TraceEvent;
import io.jrxe.rnic.engine.TraceListener;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.wire.opcode.Opcode;
import org.HdrHistogram.Histogram;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * Where the microseconds of a round trip go on this side's jrxe NIC, stage by stage, from the
 * engines' trace events and the program's own poll. The latency tools keep one work request in
 * flight per direction, so each event belongs to the one exchange under way: no lookup, no
 * allocation per event (HdrHistogram records into preallocated counts).
 * <p>
 * Requester stages follow a send work request: posted, the QP's task runs on the NIC thread,
 * the WQE is fetched, its first packet sent, the ACK or response comes back, the completion is
 * written, the program polls it. Responder stages follow a request from the peer: received,
 * then its receive completion written (a SEND) and polled, or its bytes seen by the program
 * (a WRITE, which the latency tools poll memory for).
 * <p>
 * Stages that cross threads (the post, the poll) compare System.nanoTime() readings of one
 * host; events of one stage are written by one thread only.
 */
public final class LatencyBreakdown implements TraceListener {
    /** The stages, in a round trip's order. */
    public enum Stage {
        POST_TO_TASK("post -> the NIC runs the QP"),
        TASK_TO_FETCH("task -> WQE fetched"),
        FETCH_TO_SENT("WQE fetched -> first packet sent"),
        SENT_TO_RESPONSE("sent -> ACK/response back (wire + peer)"),
        RESPONSE_TO_CQE("ACK/response -> send CQE written"),
        CQE_TO_POLLED("send CQE -> polled by the program"),
        REQUEST_TO_RECV_CQE("peer's request in -> receive CQE written"),
        RECV_CQE_TO_POLLED("receive CQE -> polled by the program"),
        REQUEST_TO_SEEN("peer's WRITE in -> its bytes seen by the program");

        final String label;

        Stage(String label) {
            this.label = label;
        }
    }

    private static final long HIGHEST_NANOS = 10_000_000_000L;
    private static final WcOpcode[] WC_OPCODES = WcOpcode.values();

    private final Histogram[] stages = new Histogram[Stage.values().length];
    private volatile long postedAt;
    // NIC thread only.
    private long taskAt;
    private long fetchedAt;
    private long sentAt;
    private long responseAt;
    private boolean awaitingTask;
    private boolean awaitingResponse;
    // Written on the NIC thread, read by the program's thread.
    private volatile long sendCqeAt;
    private volatile long recvCqeAt;
    private volatile long requestAt;

    public LatencyBreakdown() {
        for (int i = 0; i < stages.length; i++) {
            stages[i] = new Histogram(HIGHEST_NANOS, 3);
        }
    }

    @Override
    public void event(TraceEvent event, int qpn, long wrId, int psn, int opcode, long value) {
        long now = System.nanoTime();
        switch (event) {
            case POSTED -> {
                postedAt = now;
                awaitingTask = true;
            }
            case TASK_RUN -> {
                if (awaitingTask && postedAt != 0) {
                    awaitingTask = false;
                    taskAt = now;
                    record(Stage.POST_TO_TASK, now - postedAt);
                }
            }
            case FETCHED -> {
                fetchedAt = now;
                if (taskAt != 0) {
                    record(Stage.TASK_TO_FETCH, now - taskAt);
                }
            }
            case PACKET_SENT -> {
                if (fetchedAt != 0) {
                    sentAt = now;
                    record(Stage.FETCH_TO_SENT, now - fetchedAt);
                    fetchedAt = 0;
                    awaitingResponse = true;
                }
            }
            case PACKET_RECEIVED -> received(opcode, now);
            case COMPLETED -> completed(opcode, value, now);
            default -> {
            }
        }
    }

    private void received(int opcode, long now) {
        Opcode op = Opcode.of(opcode);
        if (op == null) {
            return;
        }
        if (op.isResponse()) {
            if (awaitingResponse) {
                awaitingResponse = false;
                responseAt = now;
                record(Stage.SENT_TO_RESPONSE, now - sentAt);
            }
        } else if (op.position().ends()) {
            requestAt = now;
        }
    }

    private void completed(int wcOpcode, long status, long now) {
        boolean receive = wcOpcode >= 0 && wcOpcode < WC_OPCODES.length && WC_OPCODES[wcOpcode].verbsValue() >= WcOpcode.RECV.verbsValue();
        if (receive) {
            recvCqeAt = now;
            long request = requestAt;
            if (request != 0) {
                record(Stage.REQUEST_TO_RECV_CQE, now - request);
            }
        } else {
            sendCqeAt = now;
            if (responseAt != 0) {
                record(Stage.RESPONSE_TO_CQE, now - responseAt);
                responseAt = 0;
            } else if (sentAt != 0 && !awaitingResponse) {
                // UC/UD: nothing answers; the completion follows the send.
                record(Stage.RESPONSE_TO_CQE, now - sentAt);
            }
        }
    }

    /** The program polled a send completion (its thread). */
    public void sendPolled() {
        long cqe = sendCqeAt;
        if (cqe != 0) {
            record(Stage.CQE_TO_POLLED, System.nanoTime() - cqe);
            sendCqeAt = 0;
        }
    }

    /** The program polled a receive completion (its thread). */
    public void receivePolled() {
        long cqe = recvCqeAt;
        if (cqe != 0) {
            record(Stage.RECV_CQE_TO_POLLED, System.nanoTime() - cqe);
            recvCqeAt = 0;
        }
    }

    /** The program saw the bytes of the peer's WRITE in its memory (its thread). */
    public void writeSeen() {
        long request = requestAt;
        if (request != 0) {
            record(Stage.REQUEST_TO_SEEN, System.nanoTime() - request);
            requestAt = 0;
        }
    }


    private void record(Stage stage, long nanos) {
        if (nanos >= 0 && nanos <= HIGHEST_NANOS) {
            stages[stage.ordinal()].recordValue(nanos);
        }
    }

    /** The table: one row per stage that saw events, in microseconds. */
    public void print(PrintWriter out, String side) {
        out.printf(Locale.ROOT, "latency breakdown on %s (microseconds):%n", side);
        out.printf(Locale.ROOT, " %-48s %9s %9s %9s %9s %9s%n", "stage", "count", "p50", "p99", "p99.9", "mean");
        for (Stage stage : Stage.values()) {
            Histogram h = stages[stage.ordinal()].copy();
            if (h.getTotalCount() == 0) {
                continue;
            }
            out.printf(Locale.ROOT, " %-48s %9d %9.2f %9.2f %9.2f %9.2f%n", stage.label, h.getTotalCount(),
                    h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(99) / 1e3,
                    h.getValueAtPercentile(99.9) / 1e3, h.getMean() / 1e3);
        }
        out.flush();
    }

    /** The histogram of one stage (a copy), for tests and JSON. */
    public Histogram histogram(Stage stage) {
        return stages[stage.ordinal()].copy();
    }
}
