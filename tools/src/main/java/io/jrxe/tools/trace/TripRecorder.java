package io.jrxe.tools.trace;

import io.jrxe.rnic.engine.TraceEvent;
import io.jrxe.rnic.engine.TraceListener;
import io.jrxe.tools.common.TapDissector;
import io.jrxe.wire.dissect.DissectedPacket;
import io.jrxe.wire.dissect.PacketSummary;
import io.jrxe.wire.header.AethSyndrome;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.opcode.Operation;
import io.jrxe.wire.port.PacketTap;
import io.jrxe.wire.sim.VirtualTime;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Listens to one NIC's engines and port and turns what they report into the trip's events, in the order they
 * happen (on the simulated network both NICs run on one thread, so one list holds the whole story in order).
 * Engine events that add nothing a reader of the trip needs (the QP task's turns, the packet-sent event the port's
 * tap already shows) are left out.
 */
final class TripRecorder implements TraceListener {
    private final String nic;
    /** The requester's NIC: its translations use the WR's lkey; on the other NIC an RDMA operation's use the rkey. */
    private final boolean requester;
    /** The work request is a SEND: the responder's translations then use the receive's lkey. */
    private final boolean send;
    private final VirtualTime time;
    private final List<TripEvent> events;
    private final int sqDepth;
    private final TapDissector dissector = new TapDissector();

    TripRecorder(String nic, boolean requester, boolean send, VirtualTime time, int sqDepth, List<TripEvent> events) {
        this.nic = nic;
        this.requester = requester;
        this.send = send;
        this.time = time;
        this.sqDepth = sqDepth;
        this.events = events;
    }

    void add(Stage stage, String text, Map<String, Object> fields) {
        events.add(new TripEvent(time.nanoTime(), nic, stage, text, fields, null));
    }

    @Override
    public void event(TraceEvent event, int qpn, long wrId, int psn, int opcode, long value) {
        switch (event) {
            case POSTED -> add(Stage.POST_SEND, String.format("wr_id=%d is copied into QP 0x%06x's send queue (%s, %d bytes)",
                    wrId, qpn, event.opcodeName(opcode), value), fields("qpn", qpn, "wr_id", wrId, "opcode",
                    event.opcodeName(opcode), "length", value));
            case DOORBELL -> add(Stage.DOORBELL, String.format("QPN 0x%06x, SQ producer index %d: the WQE is in SQ slot %d",
                    qpn, value, (value - 1) % sqDepth), fields("qpn", qpn, "sq_producer_index", value, "sq_slot",
                    (value - 1) % sqDepth));
            case FETCHED -> add(Stage.WQE_FETCH, String.format("the requester reads the WQE: %s wr_id=%d, %d bytes, first PSN 0x%06x",
                    event.opcodeName(opcode), wrId, value, psn), fields("qpn", qpn, "wr_id", wrId, "opcode",
                    event.opcodeName(opcode), "length", value, "psn", psn));
            case PACKET_RECEIVED -> add(Stage.PACKET_ARRIVES, String.format(
                    "%s psn 0x%06x for QP 0x%06x: ICRC checked, QP found by number, P_Key and state checked",
                    event.opcodeName(opcode), psn, qpn), fields("qpn", qpn, "psn", psn, "opcode", event.opcodeName(opcode),
                    "length", value));
            case ACK_RECEIVED -> add(Stage.ACK_READ, String.format("the completer takes PSN 0x%06x and every one before it as "
                    + "acknowledged (%s)", psn, AethSyndrome.describe((int) value)), fields("qpn", qpn, "psn", psn,
                    "syndrome", value));
            case NAK_RECEIVED -> add(Stage.NAK_READ, String.format("the completer reads a NAK for PSN 0x%06x: %s", psn,
                    AethSyndrome.describe((int) value)), fields("qpn", qpn, "psn", psn, "syndrome", value));
            case RETRANSMIT -> add(Stage.RETRANSMIT, String.format("the requester goes back to PSN 0x%06x (retry %d)", psn,
                    value), fields("qpn", qpn, "psn", psn, "retry", value));
            case DROPPED -> add(Stage.DROPPED, String.format("%s psn 0x%06x dropped: %s", event.opcodeName(opcode), psn,
                    event.valueName(value)), fields("qpn", qpn, "psn", psn, "reason", event.valueName(value)));
            case COMPLETED -> add(Stage.COMPLETION, String.format("wr_id=%d is done: %s %s", wrId, event.opcodeName(opcode),
                    event.valueName(value)), fields("qpn", qpn, "wr_id", wrId, "opcode", event.opcodeName(opcode),
                    "status", event.valueName(value)));
            case CQE_WRITTEN -> add(Stage.CQE_WRITTEN, value < 0 ? "the CQ is full: the completion is lost (CQ overflow)"
                    : String.format("the completion of wr_id=%d goes into the CQ at index %d", wrId, value),
                    fields("qpn", qpn, "wr_id", wrId, "cq_index", value));
            default -> {
                // TASK_RUN, TRANSLATED, PACKET_SENT: the QP task's turns, and what the translations and the tap tell
            }
        }
    }

    @Override
    public void translation(int key, int mptIndex, long iova, long mttIndex, long pageAddress, int pageOffset, int length,
                            boolean toMemory) {
        boolean lkey = requester || send;
        String kind = lkey ? "lkey" : "rkey";
        add(lkey ? Stage.LOCAL_DMA : Stage.REMOTE_DMA, String.format(
                "%s 0x%08x -> MPT[%d] -> iova 0x%x -> MTT[%d] = page 0x%x + 0x%03x: %d bytes %s", kind, key, mptIndex,
                iova, mttIndex, pageAddress, pageOffset, length, toMemory ? "written (DMA)" : "read (DMA)"),
                fields("key_kind", kind, "key", Integer.toUnsignedLong(key), "mpt_index", mptIndex, "iova", iova, "mtt_index", mttIndex,
                        "page_address", pageAddress, "page_offset", pageOffset, "length", length,
                        "direction", toMemory ? "write" : "read"));
    }

    @Override
    public void pageFault(int key, int mptIndex, long iova, long mttIndex, boolean arriving) {
        String kind = requester || send ? "lkey" : "rkey";
        add(Stage.PAGE_FAULT, String.format(arriving
                        ? "%s 0x%08x -> MPT[%d] -> iova 0x%x -> MTT[%d] is on its way in (asked for earlier): taken now"
                        : "%s 0x%08x -> MPT[%d] -> iova 0x%x -> MTT[%d] holds no page (ON_DEMAND): the NIC faults it in",
                kind, key, mptIndex, iova, mttIndex),
                fields("key_kind", kind, "key", Integer.toUnsignedLong(key), "mpt_index", mptIndex, "iova", iova,
                        "mtt_index", mttIndex, "arriving", arriving));
    }

    /** The port's tap: each packet this NIC builds and sends, with its headers. */
    PacketTap tap() {
        return (direction, source, destination, sourcePort, destinationPort, identification, roce, offset, length, stamp,
                comment) -> {
            if (direction != PacketTap.Direction.SENT) {
                return;
            }
            DissectedPacket p = dissector.dissect(source, destination, sourcePort, destinationPort, identification, roce,
                    offset, length, stamp);
            // The summary's first column is a capture's frame number, which a live packet has not.
            String summary = PacketSummary.of(p).strip().replaceFirst("^\\d+\\s+", "");
            Opcode op = p.opcode();
            Stage stage = requester && op != null && op.isRequest() ? Stage.PACKET_BUILT
                    : op != null && op.operation() == Operation.ACKNOWLEDGE ? Stage.ACK_BUILT : Stage.RESPONSE_BUILT;
            events.add(new TripEvent(time.nanoTime(), nic, stage, summary, fields(), p));
        };
    }

    /** An ordered map of alternating names and values. */
    static Map<String, Object> fields(Object... namesAndValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i + 1 < namesAndValues.length; i += 2) {
            m.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return m;
    }
}
