package io.jrxe.rnic.pma;

import io.jrxe.rnic.device.Counter;
import io.jrxe.rnic.device.Counters;
import io.jrxe.rnic.engine.GsiQp;
import io.jrxe.rnic.engine.MadAgent;
import io.jrxe.rnic.engine.MadInbox;
import io.jrxe.wire.cm.MadHeaderFlyweight;
import io.jrxe.wire.pma.ClassPortInfoFlyweight;
import io.jrxe.wire.pma.PerfMgmt;
import io.jrxe.wire.pma.PmaAttribute;
import io.jrxe.wire.pma.PortCountersExtendedFlyweight;
import io.jrxe.wire.pma.PortCountersFlyweight;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.stats.CounterRegistry;
import io.jrxe.wire.stats.SingleWriterCounter;
import io.jrxe.wire.time.NicTime;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * The port's Performance Management agent behind QP1 (class 0x04, version 1), as Linux 7.2's rxe
 * has one: it answers a Get of ClassPortInfo, PortCounters and PortCountersExtended with a GetResp
 * filled from the device's counters, a Get of another attribute with the status "unsupported
 * method/attribute" and a Set (or another request method) with "unsupported method". Responses it
 * did not ask for, and Traps, are dropped and counted ({@code jrxe_pma_dropped}). It also asks:
 * {@link #query} sends a Get to another port's agent and hands its GetResp to the caller (jrxe
 * perfquery). Linux 7.2's rxe answers with a blank MAD header (no class, method or transaction
 * ID: {@link MadHeaderFlyweight#isBlank}) and the attribute in place; while this agent waits for
 * exactly one answer from a port, a blank-headed MAD from that port is taken as it and counted
 * ({@code jrxe_pma_blank_answers}). Runs on the NIC thread; never throws.
 */
public final class PerformanceAgent implements MadAgent {
    private static final int INBOX_MADS = 16;
    /** ClassPortInfo's response time: 4.096 us x 2^18, about 1 s, far more than a NIC thread's turn takes. */
    private static final int RESP_TIME_VALUE = 18;

    private final GsiQp gsi;
    private final Counters device;
    private final MadInbox inbox;
    private final ByteBuffer out = ByteBuffer.allocate(MadHeaderFlyweight.MAD_LENGTH);
    private final MadHeaderFlyweight in = new MadHeaderFlyweight();
    private final MadHeaderFlyweight outHeader = new MadHeaderFlyweight();
    private final ClassPortInfoFlyweight classPortInfo = new ClassPortInfoFlyweight();
    private final PortCountersFlyweight portCounters = new PortCountersFlyweight();
    private final PortCountersExtendedFlyweight extended = new PortCountersExtendedFlyweight();
    /** A request sent and not yet answered. */
    private record Asked(PeerAddress to, Consumer<ByteBuffer> answer) {
    }

    private final Map<Long, Asked> pending = new HashMap<>();
    private final SplittableRandom random;
    /** Gets answered with the attribute ({@code jrxe_pma_answered}). */
    private final SingleWriterCounter answered = new SingleWriterCounter();
    /** Requests answered with an error status ({@code jrxe_pma_unsupported}). */
    private final SingleWriterCounter unsupported = new SingleWriterCounter();
    /** MADs neither answered nor awaited ({@code jrxe_pma_dropped}). */
    private final SingleWriterCounter dropped = new SingleWriterCounter();
    /** Answers taken though their header was blank, as rxe 7.2 sends them ({@code jrxe_pma_blank_answers}). */
    private final SingleWriterCounter blankAnswers = new SingleWriterCounter();

    public PerformanceAgent(GsiQp gsi, Counters device, NicTime time, long nodeGuid, CounterRegistry registry) {
        this.gsi = gsi;
        this.device = device;
        this.random = new SplittableRandom(nodeGuid ^ PerfMgmt.MGMT_CLASS);
        this.inbox = new MadInbox(INBOX_MADS, time, (mad, from, pkey, sourceQp) -> mad(mad, from, sourceQp));
        registry.register("jrxe_pma_answered", answered);
        registry.register("jrxe_pma_unsupported", unsupported);
        registry.register("jrxe_pma_dropped", dropped);
        registry.register("jrxe_pma_blank_answers", blankAnswers);
        gsi.register(PerfMgmt.MGMT_CLASS, this);
    }

    @Override
    public int classVersion() {
        return PerfMgmt.CLASS_VERSION;
    }

    @Override
    public MadInbox inbox() {
        return inbox;
    }

    public long answered() {
        return answered.getAsLong();
    }

    public long unsupported() {
        return unsupported.getAsLong();
    }

    public long dropped() {
        return dropped.getAsLong();
    }

    public long blankAnswers() {
        return blankAnswers.getAsLong();
    }

    /**
     * Sends a Get of {@code attribute} for port {@code portSelect} to the agent at {@code to}; its GetResp, the
     * whole MAD valid during the call, goes to {@code answer}. Returns the transaction ID, for {@link #forget}.
     * NIC thread only.
     */
    public long query(PeerAddress to, PmaAttribute attribute, int portSelect, Consumer<ByteBuffer> answer) {
        return request(to, MadHeaderFlyweight.METHOD_GET, attribute.id(), portSelect, answer);
    }

    /**
     * Sends a request of any method and attribute (a Set, an attribute jrxe does not know: what a test of another
     * agent asks) and hands its response to {@code answer}; the port select goes where both counter attributes
     * keep it. Returns the transaction ID. NIC thread only.
     */
    public long request(PeerAddress to, int method, int attributeId, int portSelect, Consumer<ByteBuffer> answer) {
        long tid = random.nextLong() & 0x7FFF_FFFF_FFFF_FFFFL;
        clearOut();
        outHeader.wrap(out, 0).baseVersion(MadHeaderFlyweight.BASE_VERSION).managementClass(PerfMgmt.MGMT_CLASS)
                .classVersion(PerfMgmt.CLASS_VERSION).method(method).transactionId(tid).attributeId(attributeId);
        portCounters.wrap(out, PerfMgmt.DATA_OFFSET).setSaturated(PortCountersFlyweight.PORT_SELECT, portSelect);
        pending.put(tid, new Asked(to, answer));
        gsi.acceptBlankHeaders(this);
        gsi.send(out, to);
        return tid;
    }

    /** Gives up waiting for the answer to {@code tid} (its asker timed out); a late answer is then dropped. */
    public void forget(long tid) {
        answered(tid);
    }

    /** The request {@code tid}, no longer waited for; null if it was not. */
    private Asked answered(long tid) {
        Asked asked = pending.remove(tid);
        if (pending.isEmpty()) {
            gsi.acceptBlankHeaders(null);
        }
        return asked;
    }

    private void mad(ByteBuffer mad, PeerAddress from, int sourceQp) {
        in.wrap(mad, 0);
        if (in.isBlank()) {
            blankAnswer(mad, from);
            return;
        }
        int method = in.method();
        if ((method & MadHeaderFlyweight.METHOD_RESPONSE_BIT) != 0) {
            Asked asked = answered(in.transactionId());
            if (asked == null) {
                dropped.increment();
            } else {
                asked.answer().accept(mad);
            }
            return;
        }
        if (method == MadHeaderFlyweight.METHOD_GET) {
            get(mad, from, sourceQp);
        } else if (method == MadHeaderFlyweight.METHOD_SET) {
            answer(mad, PerfMgmt.STATUS_UNSUPPORTED_METHOD, from, sourceQp);
        } else {
            // Trap, Send and the like ask no response of a PMA.
            dropped.increment();
        }
    }

    /** rxe 7.2's answer, with nothing in its header to match: the one request waiting on {@code from}, if one is. */
    private void blankAnswer(ByteBuffer mad, PeerAddress from) {
        long only = 0;
        int waiting = 0;
        for (Map.Entry<Long, Asked> e : pending.entrySet()) {
            if (e.getValue().to().sameIp(from)) {
                only = e.getKey();
                waiting++;
            }
        }
        if (waiting != 1) {
            dropped.increment();
            return;
        }
        blankAnswers.increment();
        answered(only).answer().accept(mad);
    }

    private void get(ByteBuffer mad, PeerAddress from, int sourceQp) {
        PmaAttribute attribute = PmaAttribute.of(in.attributeId());
        if (attribute == null) {
            answer(mad, PerfMgmt.STATUS_UNSUPPORTED_METHOD_ATTRIBUTE, from, sourceQp);
            return;
        }
        startAnswer(mad, 0);
        switch (attribute) {
            case CLASS_PORT_INFO -> classPortInfo.wrap(out, PerfMgmt.DATA_OFFSET).set(MadHeaderFlyweight.BASE_VERSION,
                    PerfMgmt.CLASS_VERSION, PerfMgmt.CAPABILITY_EXTENDED_WIDTH, RESP_TIME_VALUE);
            case PORT_COUNTERS -> fillPortCounters(mad);
            case PORT_COUNTERS_EXTENDED -> fillExtended(mad);
        }
        answered.increment();
        gsi.send(out, from, sourceQp);
    }

    /** PortCounters: link downed, and the traffic counters in their 32 bits, stopping at all ones. */
    private void fillPortCounters(ByteBuffer request) {
        PortCountersFlyweight asked = portCounters.wrap(request, PerfMgmt.DATA_OFFSET);
        long portSelect = asked.get(PortCountersFlyweight.PORT_SELECT);
        long counterSelect = asked.get(PortCountersFlyweight.COUNTER_SELECT);
        portCounters.wrap(out, PerfMgmt.DATA_OFFSET)
                .setSaturated(PortCountersFlyweight.PORT_SELECT, portSelect)
                .setSaturated(PortCountersFlyweight.COUNTER_SELECT, counterSelect)
                .setSaturated(PortCountersFlyweight.LINK_DOWNED, device.get(Counter.LINK_DOWNED))
                .setSaturated(PortCountersFlyweight.XMIT_DATA, device.get(Counter.SENT_BYTES) >>> 2)
                .setSaturated(PortCountersFlyweight.RCV_DATA, device.get(Counter.RCVD_BYTES) >>> 2)
                .setSaturated(PortCountersFlyweight.XMIT_PACKETS, device.get(Counter.SENT_PKTS))
                .setSaturated(PortCountersFlyweight.RCV_PACKETS, device.get(Counter.RCVD_PKTS));
    }

    /** PortCountersExtended: the traffic counters 64 bits wide, data in 4-byte words, as rxe 7.2 fills them. */
    private void fillExtended(ByteBuffer request) {
        PortCountersExtendedFlyweight asked = extended.wrap(request, PerfMgmt.DATA_OFFSET);
        long portSelect = asked.get(PortCountersExtendedFlyweight.PORT_SELECT);
        long counterSelect = asked.get(PortCountersExtendedFlyweight.COUNTER_SELECT);
        extended.wrap(out, PerfMgmt.DATA_OFFSET)
                .set(PortCountersExtendedFlyweight.PORT_SELECT, portSelect)
                .set(PortCountersExtendedFlyweight.COUNTER_SELECT, counterSelect)
                .set(PortCountersExtendedFlyweight.XMIT_DATA, device.get(Counter.SENT_BYTES) >>> 2)
                .set(PortCountersExtendedFlyweight.RCV_DATA, device.get(Counter.RCVD_BYTES) >>> 2)
                .set(PortCountersExtendedFlyweight.XMIT_PACKETS, device.get(Counter.SENT_PKTS))
                .set(PortCountersExtendedFlyweight.RCV_PACKETS, device.get(Counter.RCVD_PKTS));
    }

    /** A GetResp carrying only a status: the request's header and data echoed, as IBTA asks of an error response. */
    private void answer(ByteBuffer request, int status, PeerAddress from, int sourceQp) {
        startAnswer(request, status);
        out.put(MadHeaderFlyweight.LENGTH, request, MadHeaderFlyweight.LENGTH,
                MadHeaderFlyweight.MAD_LENGTH - MadHeaderFlyweight.LENGTH);
        unsupported.increment();
        gsi.send(out, from, sourceQp);
    }

    /** The request's header, turned into a GetResp with {@code status}; the rest zero. */
    private void startAnswer(ByteBuffer request, int status) {
        clearOut();
        out.put(0, request, 0, MadHeaderFlyweight.LENGTH);
        outHeader.wrap(out, 0).method(MadHeaderFlyweight.METHOD_GET | MadHeaderFlyweight.METHOD_RESPONSE_BIT)
                .status(status);
    }

    private void clearOut() {
        for (int i = 0; i < MadHeaderFlyweight.MAD_LENGTH; i += 8) {
            out.putLong(i, 0);
        }
    }
}
