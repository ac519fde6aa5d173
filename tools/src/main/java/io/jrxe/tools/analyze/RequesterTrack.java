package io.jrxe.tools.analyze;

import io.jrxe.wire.header.AethSyndrome;
import io.jrxe.wire.header.NakCode;
import io.jrxe.wire.header.RnrTimer;
import io.jrxe.wire.opcode.MessagePosition;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.opcode.Operation;
import io.jrxe.wire.opcode.Transport;
import io.jrxe.wire.psn.Psn;

import java.util.EnumMap;
import java.util.Map;

/**
 * One requester of a connection as the capture shows it: the request PSNs it sent and the responses
 * its responder sent back, walked in capture order. From them it finds what Wireshark finds for TCP:
 * PSNs the capture skipped (lost before the capture point) and whether they came later as resends or as
 * late arrivals; retransmissions, grouped into go-back-N episodes, with their cause (a sequence NAK, an RNR
 * NAK, a NAK implied by a READ response or atomic ACK, or else the ACK timeout, with the wait each took);
 * copies made by the network; NAKs; READ responses the capture skipped; READs and atomics answered again;
 * requests still unacknowledged at the end. It counts messages, data bytes and request-to-response times.
 * <p>
 * Sequence state is kept per PSN in bounded rings ({@link SentRequests}, {@link ReadsAndAtomics}), so a
 * requester of any length costs bounded memory; nothing is allocated per packet unless a finding is made.
 */
final class RequesterTrack {
    /** A late packet that comes within this of the gap it fills, with no NAK or IP identification to tell, was reordered. */
    static final long REORDER_WINDOW = 1_000_000;
    /** An identical packet within this of its previous sight, with nothing that asked for a resend, is the network's copy. */
    static final long DUPLICATE_WINDOW = 1_000_000;

    /** What the last packet of this requester's traffic was, for the stall it may have ended. */
    enum Event { REQUEST, RESEND, DUPLICATE, LATE, ACK, NAK, RNR_NAK, READ_RESPONSE, ATOMIC_ACK, OTHER }

    final Findings findings;
    private final boolean arrivalsKnown;
    private final Timeline timeline;
    final TimeSequence graph = new TimeSequence();
    final RateSeries throughput;
    final RoundTrips roundTrips = new RoundTrips();
    private final SentRequests sent = new SentRequests();
    /** The READ responses and atomic ACKs seen, by PSN: their IPv4 identification and ICRC tell a copy from a replay. */
    private final SentRequests answers = new SentRequests();
    private final ReadsAndAtomics reads = new ReadsAndAtomics();
    private final PsnGaps gaps;

    private boolean started;
    private boolean unreliable;
    private int firstPsn;
    /** Requests seen so far, counted in PSNs from the first, without wrapping: where {@link #nextPsn} is. */
    private long nextPosition;
    private int nextPsn;
    private int pmtu;
    /** A READ whose span was unknown when the next request came: the next request's PSN may tell the path MTU. */
    private ReadOrAtomic spanUnknown;

    private boolean acked;
    private int ackedThrough;
    private long lastProgressTime;

    private ResendEpisode episode;
    private long latestCauseTime = Long.MIN_VALUE;
    // The latest sequence NAK, RNR NAK and implied NAK the responder sent (frame -1: none yet).
    private int seqNakPsn;
    private long seqNakFrame = -1;
    private long seqNakTime;
    private int seqNakCount;
    private boolean seqNakAnswered = true;
    private int rnrPsn;
    private int rnrTimer;
    private long rnrFirstFrame = -1;
    private long rnrFirstTime;
    private long rnrLastFrame;
    private long rnrLastTime;
    private int rnrCount;
    private long rnrWaited;
    private long rnrResumeFrame = -1;
    private boolean rnrOpen;
    private int impliedPsn;
    private long impliedFrame = -1;
    private long impliedTime;
    private String impliedWords;

    // Counts.
    long requestPackets;
    long newRequestPackets;
    long resentPackets;
    long duplicatePackets;
    long latePackets;
    long responsePackets;
    long messages;
    final Map<Operation, Long> messagesByOperation = new EnumMap<>(Operation.class);
    long dataBytes;
    long firstTime = -1;
    long lastTime;
    long lastRequestFrame;
    long lastRequestTime;
    Event lastEvent = Event.OTHER;
    private String lastResendWords;

    /**
     * @param arrivalsKnown whether the capture records where each packet arrived (jrxe's, one interface per port):
     *                      then a missing packet is one that never arrived, not one the capture point missed
     */
    RequesterTrack(Findings findings, Timeline timeline, RateSeries throughput, boolean arrivalsKnown) {
        this.arrivalsKnown = arrivalsKnown;
        this.findings = findings;
        this.timeline = timeline;
        this.throughput = throughput;
        this.gaps = new PsnGaps(this::gapClosed);
    }

    // ---- requests ---------------------------------------------------------------------------------------

    void request(RocePacket p) {
        requestPackets++;
        lastRequestFrame = p.frame;
        lastRequestTime = p.time;
        if (p.opcode.transport() == Transport.UC) {
            unreliable = true;
        }
        learnMtu(p.opcode.position(), p.payloadLength);
        if (!started) {
            started = true;
            firstPsn = p.psn;
            nextPsn = p.psn;
            nextPosition = 0;
            firstTime = p.time;
        }
        int d = Psn.diff(p.psn, nextPsn);
        if (d > 0 && spanUnknown != null && readSpanFits(p.psn)) {
            d = 0;
        }
        if (d == 0) {
            fresh(p);
            return;
        }
        if (d > 0) {
            PsnGap gap = new PsnGap(nextPsn, d, p.frame, p.time, p.ipId);
            gaps.open(gap);
            graph.gaps.add(p.time, position(nextPsn));
            nextPosition += d;
            nextPsn = p.psn;
            fresh(p);
            return;
        }
        PsnGap gap = gaps.missing(p.psn);
        if (gap != null) {
            fillGap(gap, p);
            return;
        }
        int slot = sent.find(p.psn);
        if (slot >= 0 && networkCopy(slot, p)) {
            duplicatePackets++;
            lastEvent = Event.DUPLICATE;
            graph.duplicates.add(p.time, position(p.psn));
            findings.add(new Finding(FindingKind.DUPLICATE, p.frame, p.time, p.psn, p.psn, 1,
                    p.opcode.displayName() + " PSN " + Psn.format(p.psn) + " seen again, the same packet as #"
                            + sent.lastFrame(slot) + " " + Timeline.duration(p.time - sent.lastTime(slot))
                            + " before it (" + (p.ipId > 0 ? "same IP identification " + p.ipId : "same ICRC")
                            + "): a copy made on the way, not a resend", new long[] {sent.lastFrame(slot)}));
            sent.again(slot, p.frame, p.time, p.ipId, p.icrcStored);
            return;
        }
        if (slot < 0 && p.opcode.operation() == Operation.RDMA_READ_REQUEST) {
            ReadOrAtomic r = reads.covering(p.psn);
            int readSlot = r == null ? -1 : sent.find(r.psn);
            if (readSlot >= 0) {
                if (r.lastResponseFrame >= 0 && Psn.after(r.nextResponse, p.psn) && cause(p.psn, sent.lastTime(readSlot),
                        p.time) == null && p.time - r.lastResponseTime <= REORDER_WINDOW) {
                    // The capture saw the responses past this PSN go out, and the requester asks again soon after:
                    // it missed this one, lost after the capture point, and a later one told it so.
                    implied(r.lastResponseFrame, r.lastResponseTime, p.psn, "inferred: the responder had sent READ response"
                            + " PSNs up to " + Psn.format(Psn.add(r.nextResponse, -1)) + ", so PSN " + Psn.format(p.psn)
                            + " was lost after the capture point and a later one arrived");
                }
                resend(-1, p, sent.lastFrame(readSlot), sent.lastTime(readSlot));
                return;
            }
        }
        resend(slot, p, slot >= 0 ? sent.lastFrame(slot) : -1, slot >= 0 ? sent.lastTime(slot) : -1);
    }

    /** A UD datagram: counted, no sequence to follow (a UD QP numbers its datagrams to every destination in one run). */
    void datagram(RocePacket p) {
        requestPackets++;
        newRequestPackets++;
        messages++;
        messagesByOperation.merge(p.opcode.operation(), 1L, Long::sum);
        lastRequestFrame = p.frame;
        lastRequestTime = p.time;
        if (firstTime < 0) {
            firstTime = p.time;
        }
        lastEvent = Event.REQUEST;
        data(p.time, p.payloadLength);
    }

    /** A request PSN never seen before, in order. */
    private void fresh(RocePacket p) {
        closeEpisode();
        spanUnknown = null;
        Opcode op = p.opcode;
        int flags = (p.ackRequest ? SentRequests.ACK_REQUEST : 0)
                | (op.operation() == Operation.RDMA_READ_REQUEST ? SentRequests.READ : 0)
                | (isAtomic(op) ? SentRequests.ATOMIC : 0);
        sent.first(p.psn, p.frame, p.time, p.ipId, p.icrcStored, flags);
        newRequestPackets++;
        lastEvent = Event.REQUEST;
        graph.sent.add(p.time, position(p.psn));
        MessagePosition position = op.position();
        if (position == MessagePosition.FIRST || position == MessagePosition.ONLY) {
            messages++;
            messagesByOperation.merge(op.operation(), 1L, Long::sum);
        }
        data(p.time, p.payloadLength);
        int span = readOrAtomicStarts(p);
        // The position first: it is counted from nextPsn as it stood.
        nextPosition = position(p.psn) + span;
        nextPsn = Psn.add(p.psn, span);
        // The ring grows with the PSNs outstanding, but never past the packets seen: a capture whose PSNs jump about
        // (a damaged or hostile one) cannot make it large.
        sent.ensure((int) Math.min(Psn.distance(acked ? ackedThrough : firstPsn, nextPsn), newRequestPackets));
    }

    /**
     * A request seen for the first time: if it is a READ or an atomic, its answer is followed from now on. Returns
     * the PSNs it takes (a READ's, one per response packet; the smallest possible while the path MTU is unknown).
     */
    private int readOrAtomicStarts(RocePacket p) {
        Opcode op = p.opcode;
        if (op.operation() != Operation.RDMA_READ_REQUEST && !isAtomic(op)) {
            return 1;
        }
        int span = isAtomic(op) ? 1 : pmtu > 0 ? Spans.of(p.dmaLength, pmtu) : 0;
        answers.ensure(Math.min(Math.max(span, 1), SentRequests.LARGEST_ANSWERED));
        ReadOrAtomic r = new ReadOrAtomic(p.psn, isAtomic(op), Math.max(0, p.dmaLength), p.frame, span);
        reads.add(r);
        if (span == 0) {
            spanUnknown = r;
            span = Spans.of(p.dmaLength, Spans.MTUS[Spans.MTUS.length - 1]);
        }
        return span;
    }

    /** Whether {@code psn} is where the READ of unknown span would end for some path MTU: then that is the MTU. */
    private boolean readSpanFits(int psn) {
        ReadOrAtomic r = spanUnknown;
        int jump = Psn.distance(r.psn, psn);
        for (int m : Spans.MTUS) {
            if (Spans.of(r.length, m) == jump) {
                spanUnknown = null;
                mtuKnown(m);
                nextPosition = position(r.psn) + jump;
                nextPsn = psn;
                return true;
            }
        }
        return false;
    }

    private void learnMtu(MessagePosition position, int payload) {
        if (pmtu == 0 && (position == MessagePosition.FIRST || position == MessagePosition.MIDDLE) && Spans.isMtu(payload)) {
            mtuKnown(payload);
        }
    }

    private void mtuKnown(int m) {
        pmtu = m;
        reads.spans(m);
        if (spanUnknown != null) {
            // The last request was that READ: the next new PSN is where its response, now measured, ends.
            nextPosition = position(spanUnknown.psn) + spanUnknown.span;
            nextPsn = Psn.add(spanUnknown.psn, spanUnknown.span);
            spanUnknown = null;
        }
    }

    /** A PSN the capture had skipped: a resend of a packet lost before the capture point, or the packet itself, late. */
    private void fillGap(PsnGap gap, RocePacket p) {
        boolean late;
        if (unreliable) {
            late = true; // UC never resends
        } else if (p.ipId > 0 && gap.revealIpId > 0 && Math.abs((short) (p.ipId - gap.revealIpId)) < 16_384) {
            // Linux numbers a sender's IPv4 packets in order: one numbered before the packet that showed the gap was sent before it.
            late = (short) (p.ipId - gap.revealIpId) < 0;
        } else {
            late = cause(p.psn, gap.openedTime, p.time) == null && p.time - gap.openedTime <= REORDER_WINDOW;
        }
        if (late) {
            gap.reordered(p.psn);
            latePackets++;
            lastEvent = Event.LATE;
            graph.reordered.add(p.time, position(p.psn));
            sent.first(p.psn, p.frame, p.time, p.ipId, p.icrcStored, p.ackRequest ? SentRequests.ACK_REQUEST : 0);
            data(p.time, p.payloadLength);
            readOrAtomicStarts(p);
            findings.add(new Finding(FindingKind.REORDERED, p.frame, p.time, p.psn, p.psn, 1,
                    p.opcode.displayName() + " PSN " + Psn.format(p.psn) + " came " + Timeline.duration(p.time - gap.openedTime)
                            + " after a later PSN (#" + gap.openedFrame + ")" + (p.ipId > 0 && gap.revealIpId > 0
                            ? ", though sent before it (IP identification " + p.ipId + " < " + gap.revealIpId + ")" : "")
                            + ": reordered on the way", new long[] {gap.openedFrame}));
        } else {
            gap.resent(p.psn, p.frame, p.time);
            resend(-1, p, gap.openedFrame, gap.openedTime);
        }
        if (p.opcode.operation() == Operation.RDMA_READ_REQUEST) {
            ReadOrAtomic r = reads.at(p.psn);
            if (r != null) {
                gap.readResponse(p.psn, r.span - 1);
            }
        }
        gaps.settle(gap);
    }

    /** Whether the packet in {@code slot} seen again is a copy the network made rather than a resend. */
    private boolean networkCopy(int slot, RocePacket p) {
        if (unreliable) {
            return true; // UC never resends
        }
        if (p.ipId > 0 && sent.ipId(slot) > 0) {
            return p.ipId == sent.ipId(slot) && p.icrcStored == sent.icrc(slot);
        }
        return p.icrcStored == sent.icrc(slot) && p.time - sent.lastTime(slot) < DUPLICATE_WINDOW
                && cause(p.psn, sent.lastTime(slot), p.time) == null
                && (episode == null || !episode.goesOnWith(p.psn, latestCauseTime));
    }

    /**
     * A request sent again. {@code sinceFrame} and {@code since} are its previous sending (or, for a PSN the
     * capture skipped, the frame that showed the gap); -1 when unknown.
     */
    private void resend(int slot, RocePacket p, long sinceFrame, long since) {
        resentPackets++;
        lastEvent = Event.RESEND;
        graph.resent.add(p.time, position(p.psn));
        if (episode == null || !episode.goesOnWith(p.psn, latestCauseTime)) {
            ResendCause cause = cause(p.psn, since, p.time);
            if (cause == null) {
                cause = timeout(p, sinceFrame, since, slot < 0);
            }
            lastResendWords = cause.words();
            if (episode != null && episode.anotherRound(p.psn, cause)) {
                episode.round(p.psn, p.frame, p.time, cause.waited());
            } else {
                closeEpisode();
                episode = new ResendEpisode(p.psn, p.frame, p.time, cause);
            }
            answered(cause, p);
        } else {
            episode.add(p.psn, p.frame);
            lastResendWords = episode.cause.words();
        }
        if (slot >= 0) {
            sent.again(slot, p.frame, p.time, p.ipId, p.icrcStored);
        } else {
            sent.first(p.psn, p.frame, p.time, p.ipId, p.icrcStored, p.ackRequest ? SentRequests.ACK_REQUEST : 0);
            sent.again(sent.find(p.psn), p.frame, p.time, p.ipId, p.icrcStored); // two sendings: no round-trip sample
            data(p.time, p.payloadLength);
            if (reads.at(p.psn) == null && (p.opcode.operation() != Operation.RDMA_READ_REQUEST || reads.covering(p.psn) == null)) {
                readOrAtomicStarts(p);
            }
        }
        Opcode op = p.opcode;
        if (op.operation() == Operation.RDMA_READ_REQUEST || isAtomic(op)) {
            ReadOrAtomic r = isAtomic(op) ? reads.at(p.psn) : reads.covering(p.psn);
            if (r != null) {
                r.askedAgain = true;
                if (!isAtomic(op) && p.psn != r.psn) {
                    episode.readAskedAgain("the READ of PSN " + Psn.format(r.psn) + " (#" + r.frame + ") asked again from PSN "
                            + Psn.format(p.psn) + ", " + Psn.distance(r.psn, p.psn) + " response packets into it");
                }
            }
        }
    }

    private ResendCause timeout(RocePacket p, long sinceFrame, long since, boolean skipped) {
        if (since < 0) {
            return new ResendCause(ResendCause.Kind.ACK_TIMEOUT, -1, 0,
                    "ACK timeout (inferred: no NAK asked for it; its first sending is not in the capture)");
        }
        long wait = p.time - since;
        String from = skipped ? "the capture first missed it (#" + sinceFrame + ")" : "its last sending (#" + sinceFrame + ")";
        return new ResendCause(ResendCause.Kind.ACK_TIMEOUT, sinceFrame, wait, "ACK timeout (inferred: no ACK or NAK for it "
                + Timeline.duration(wait) + " after " + from + ")");
    }

    /**
     * The NAK the responder sent that explains a resend of {@code psn} at {@code now}, sent after {@code since};
     * or null. When an RNR NAK and a sequence NAK both ask for it, the earlier is the cause: a responder that
     * refused a packet for want of a receive finds the packets after it out of sequence and NAKs them too.
     */
    private ResendCause cause(int psn, long since, long now) {
        boolean sequence = seqNakFrame >= 0 && seqNakTime >= since && seqNakPsn == psn;
        boolean rnr = rnrFirstFrame >= 0 && rnrLastTime >= since && rnrPsn == psn;
        if (rnr && (!sequence || rnrLastTime <= seqNakTime)) {
            return new ResendCause(ResendCause.Kind.RNR_NAK, rnrLastFrame, now - rnrLastTime,
                    "after the RNR NAK #" + rnrLastFrame + " (timer " + rnrTimer + ": " + RnrTimer.describe(rnrTimer)
                            + "), waited " + Timeline.duration(now - rnrLastTime)
                            + (sequence ? " (the sequence NAK #" + seqNakFrame + " that followed it asked for the same PSN)" : ""));
        }
        if (sequence) {
            return new ResendCause(ResendCause.Kind.SEQUENCE_NAK, seqNakFrame, now - seqNakTime,
                    "after the PSN sequence NAK #" + seqNakFrame + " (the responder expected PSN " + Psn.format(seqNakPsn)
                            + "), " + Timeline.duration(now - seqNakTime) + " later");
        }
        if (impliedFrame >= 0 && impliedTime >= since && !Psn.after(psn, impliedPsn) && now - impliedTime <= prompt()) {
            return new ResendCause(ResendCause.Kind.IMPLIED_NAK, impliedFrame, now - impliedTime,
                    "implied NAK: " + impliedWords + " (#" + impliedFrame + "), " + Timeline.duration(now - impliedTime) + " later");
        }
        return null;
    }

    /**
     * How soon a requester acts on a NAK it infers from a response: at once, give or take the time it takes to
     * answer anything. A resend later than this after the response came from the ACK timeout (rxe, for one, acts
     * only on a response that starts a READ's answer and waits out the timer for the others).
     */
    private long prompt() {
        return Math.max(REORDER_WINDOW, roundTrips.count() > 0 ? 8 * roundTrips.median() : 0);
    }

    /** The NAKs that asked for the resend of {@code p} are settled: their episodes are reported. */
    private void answered(ResendCause cause, RocePacket p) {
        if (!seqNakAnswered && seqNakPsn == p.psn) {
            seqNakAnswered = true;
            String after = cause.kind() == ResendCause.Kind.RNR_NAK
                    ? " (it follows the RNR NAK #" + rnrLastFrame + ": the packets after the refused one were out of sequence)"
                    : "";
            findings.add(new Finding(FindingKind.SEQUENCE_NAK, seqNakFrame, seqNakTime, seqNakPsn, seqNakPsn, seqNakCount,
                    "PSN sequence NAK" + (seqNakCount > 1 ? " x" + seqNakCount : "") + ": the responder expected PSN "
                            + Psn.format(seqNakPsn) + " and got a later one" + after + "; the requester resent from it at #"
                            + p.frame + ", " + Timeline.duration(p.time - seqNakTime) + " later", new long[] {p.frame}));
        }
        if (cause.kind() == ResendCause.Kind.RNR_NAK && rnrOpen) {
            rnrWaited += p.time - rnrLastTime;
            rnrResumeFrame = p.frame;
            graph.wait(rnrLastTime, p.time, position(rnrPsn));
        }
    }

    private void closeEpisode() {
        ResendEpisode e = episode;
        if (e == null) {
            return;
        }
        episode = null;
        String psns = e.firstPsn == e.lastPsn ? "PSN " + Psn.format(e.firstPsn)
                : "PSN " + Psn.format(e.firstPsn) + ".." + Psn.format(e.lastPsn);
        String frames = e.firstFrame == e.lastFrame ? "#" + e.firstFrame : "#" + e.firstFrame + "..#" + e.lastFrame;
        String rounds = e.rounds <= 1 ? ": " : ", in " + e.rounds + " rounds, each " + (e.cause.kind() == ResendCause.Kind.RNR_NAK
                ? "after an RNR NAK of the same run" : "after the ACK timeout") + " (waits " + Timeline.duration(e.shortestWait)
                + " to " + Timeline.duration(e.longestWait) + "); the first ";
        findings.add(new Finding(FindingKind.RESENT, e.firstFrame, e.firstTime, e.firstPsn, e.lastPsn, e.packets,
                psns + " resent (" + e.packets + (e.packets == 1 ? " packet, " : " packets, ") + frames + ")" + rounds
                        + e.cause.words() + (e.readsAskedAgain == null ? "" : "; " + e.readsAskedAgain),
                e.cause.frame() >= 0 ? new long[] {e.cause.frame()} : new long[0], e.cause.kind().id()));
    }

    // ---- responses --------------------------------------------------------------------------------------

    void response(RocePacket p) {
        responsePackets++;
        if (firstTime < 0) {
            firstTime = p.time;
        }
        Opcode op = p.opcode;
        switch (op.operation()) {
            case ACKNOWLEDGE -> acknowledge(p);
            case RDMA_READ_RESPONSE -> readResponse(p);
            case ATOMIC_ACKNOWLEDGE -> atomicAcknowledge(p);
            default -> lastEvent = Event.OTHER;
        }
    }

    private void acknowledge(RocePacket p) {
        int syndrome = p.syndrome;
        switch (AethSyndrome.type(syndrome)) {
            case AethSyndrome.TYPE_ACK -> {
                lastEvent = Event.ACK;
                ReadOrAtomic unanswered = reads.unansweredBefore(Psn.next(p.psn));
                if (unanswered != null && acked && Psn.after(unanswered.psn, ackedThrough)) {
                    implied(p, "the ACK of PSN " + Psn.format(p.psn) + " came before the whole answer to PSN "
                            + Psn.format(unanswered.psn));
                }
                sample(p.psn, p.time);
                progress(p.psn, p.time);
            }
            case AethSyndrome.TYPE_RNR_NAK -> {
                lastEvent = Event.RNR_NAK;
                progress(Psn.add(p.psn, -1), p.time);
                rnrNak(p);
            }
            case AethSyndrome.TYPE_NAK -> {
                lastEvent = Event.NAK;
                progress(Psn.add(p.psn, -1), p.time);
                if (AethSyndrome.value(syndrome) == NakCode.PSN_SEQUENCE_ERROR.value()) {
                    sequenceNak(p);
                } else {
                    graph.naks.add(p.time, position(p.psn));
                    progress(p.psn, p.time); // answered, with an error: nothing more is owed for it
                    findings.add(new Finding(FindingKind.FATAL_NAK, p.frame, p.time, p.psn, p.psn, 1,
                            AethSyndrome.describe(syndrome) + " for PSN " + Psn.format(p.psn)
                                    + ": the request failed and the requester's QP goes to the error state", new long[0]));
                }
            }
            default -> {
                lastEvent = Event.OTHER;
                findings.add(new Finding(FindingKind.MALFORMED, p.frame, p.time, p.psn, p.psn, 1,
                        "ACKNOWLEDGE with a reserved AETH syndrome 0x" + Integer.toHexString(syndrome), new long[0]));
            }
        }
    }

    private void sequenceNak(RocePacket p) {
        graph.naks.add(p.time, position(p.psn));
        latestCauseTime = p.time;
        if (!seqNakAnswered && seqNakPsn == p.psn) {
            seqNakCount++;
        } else {
            reportUnansweredNak();
            seqNakPsn = p.psn;
            seqNakFrame = p.frame;
            seqNakTime = p.time;
            seqNakCount = 1;
            seqNakAnswered = false;
        }
    }

    private void reportUnansweredNak() {
        if (!seqNakAnswered) {
            seqNakAnswered = true;
            findings.add(new Finding(FindingKind.SEQUENCE_NAK, seqNakFrame, seqNakTime, seqNakPsn, seqNakPsn, seqNakCount,
                    "PSN sequence NAK" + (seqNakCount > 1 ? " x" + seqNakCount : "") + ": the responder expected PSN "
                            + Psn.format(seqNakPsn) + "; the capture shows no resend from it", new long[0]));
        }
    }

    private void rnrNak(RocePacket p) {
        graph.rnrNaks.add(p.time, position(p.psn));
        latestCauseTime = p.time;
        if (!rnrOpen || rnrPsn != p.psn) {
            closeRnr();
            rnrOpen = true;
            rnrPsn = p.psn;
            rnrFirstFrame = p.frame;
            rnrFirstTime = p.time;
            rnrCount = 0;
            rnrWaited = 0;
            rnrResumeFrame = -1;
        }
        rnrCount++;
        rnrTimer = AethSyndrome.value(p.syndrome);
        rnrLastFrame = p.frame;
        rnrLastTime = p.time;
    }

    private void closeRnr() {
        if (!rnrOpen) {
            return;
        }
        rnrOpen = false;
        String resumed = rnrResumeFrame >= 0 ? "; resent at #" + rnrResumeFrame + ", the requester waited "
                + Timeline.duration(rnrWaited) + " in all" : "; the capture shows no resend after the last one";
        findings.add(new Finding(FindingKind.RNR_NAK, rnrFirstFrame, rnrFirstTime, rnrPsn, rnrPsn, rnrCount,
                "RNR NAK" + (rnrCount > 1 ? " x" + rnrCount + " (#" + rnrFirstFrame + "..#" + rnrLastFrame + ")" : "")
                        + " for PSN " + Psn.format(rnrPsn) + ": the responder had no receive posted; timer " + rnrTimer
                        + " asks for " + RnrTimer.describe(rnrTimer) + resumed,
                rnrResumeFrame >= 0 ? new long[] {rnrResumeFrame} : new long[0]));
    }

    private void readResponse(RocePacket p) {
        lastEvent = Event.READ_RESPONSE;
        learnMtu(p.opcode.position(), p.payloadLength);
        MessagePosition position = p.opcode.position();
        ReadOrAtomic r = reads.covering(p.psn);
        if (r == null || r.atomic) {
            // An ATOMIC WRITE's or FLUSH's answer (a READ RESPONSE of no data), or a READ's asked before the capture.
            if (position == MessagePosition.LAST || position == MessagePosition.ONLY) {
                sample(p.psn, p.time);
                progress(p.psn, p.time);
            }
            return;
        }
        if (position == MessagePosition.FIRST || position == MessagePosition.ONLY) {
            sample(p.psn, p.time);
        }
        int d = Psn.diff(p.psn, r.nextResponse);
        if (d < 0 && r.fills(p.psn)) {
            answered(p);
            data(p.time, p.payloadLength);
            return;
        }
        if (d < 0) {
            repeatedAnswer(r, p, position == MessagePosition.LAST || position == MessagePosition.ONLY);
            return;
        }
        if (d > 0) {
            int from = r.nextResponse;
            r.skipped(from, p.psn);
            findings.add(new Finding(FindingKind.READ_RESPONSE_GAP, p.frame, p.time, from, Psn.add(p.psn, -1), d,
                    "READ response PSN " + range(from, Psn.add(p.psn, -1)) + " of the READ #" + r.frame + " (PSN "
                            + Psn.format(r.psn) + ") " + (arrivalsKnown ? "had not arrived when PSN " + Psn.format(p.psn)
                            + " did: lost on the way" : "not captured before PSN " + Psn.format(p.psn)
                            + ": lost before the capture point"), new long[] {r.frame}));
            implied(p, "the READ response PSN " + Psn.format(p.psn) + " skipped PSN " + Psn.format(from));
        }
        ReadOrAtomic older = reads.unansweredBefore(r.psn);
        if (older != null) {
            implied(p, "the response to PSN " + Psn.format(r.psn) + " came before any to PSN " + Psn.format(older.psn));
        }
        r.nextResponse = Psn.next(p.psn);
        r.lastResponseFrame = p.frame;
        r.lastResponseTime = p.time;
        answered(p);
        data(p.time, p.payloadLength);
        if (position == MessagePosition.LAST || position == MessagePosition.ONLY) {
            r.answered = true;
            r.askedAgain = false;
            progress(p.psn, p.time);
        } else {
            progress(Psn.add(r.psn, -1), p.time);
        }
    }

    private void atomicAcknowledge(RocePacket p) {
        lastEvent = Event.ATOMIC_ACK;
        ReadOrAtomic r = reads.at(p.psn);
        if (r == null || !r.atomic) {
            progress(p.psn, p.time);
            return;
        }
        if (r.valueSeen) {
            if (networkCopyOfAnswer(p, "atomic ACKNOWLEDGE")) {
                return;
            }
            String why = replayWhy(r);
            r.askedAgain = false;
            if (p.atomicOriginal == r.atomicValue) {
                findings.add(new Finding(FindingKind.ATOMIC_REPLAY, p.frame, p.time, p.psn, p.psn, 1,
                        "the atomic of PSN " + Psn.format(p.psn) + " (#" + r.frame + ") answered again with the same original"
                                + " value 0x" + Long.toHexString(r.atomicValue) + ": replayed from the responder's resources,"
                                + " not executed twice, " + why, new long[] {r.frame}));
            } else {
                findings.add(new Finding(FindingKind.ATOMIC_REPLAY_DIFFERS, p.frame, p.time, p.psn, p.psn, 1,
                        "the atomic of PSN " + Psn.format(p.psn) + " (#" + r.frame + ") answered again with original value 0x"
                                + Long.toHexString(p.atomicOriginal) + ", the first answer said 0x"
                                + Long.toHexString(r.atomicValue) + ": executed twice?", new long[] {r.frame}));
            }
            return;
        }
        ReadOrAtomic older = reads.unansweredBefore(r.psn);
        if (older != null) {
            implied(p, "the atomic ACK of PSN " + Psn.format(r.psn) + " came before any answer to PSN " + Psn.format(older.psn));
        }
        sample(p.psn, p.time);
        r.answered = true;
        r.atomicValue = p.atomicOriginal;
        r.valueSeen = true;
        answered(p);
        progress(p.psn, p.time);
    }

    /** A READ response for PSNs already answered: a copy the network made, or the responder's replay. */
    private void repeatedAnswer(ReadOrAtomic r, RocePacket p, boolean last) {
        if (networkCopyOfAnswer(p, "READ response")) {
            return;
        }
        if (p.psn != r.replayNext) {
            findings.add(new Finding(FindingKind.READ_REPLAY, p.frame, p.time, p.psn, p.psn, 1,
                    "the READ of PSN " + Psn.format(r.psn) + " (#" + r.frame + ") answered again from PSN "
                            + Psn.format(p.psn) + ": replayed from the responder's resources, " + replayWhy(r),
                    new long[] {r.frame}));
        }
        r.replayNext = Psn.next(p.psn);
        answered(p);
        if (last) {
            r.askedAgain = false;
        }
    }

    private static String replayWhy(ReadOrAtomic r) {
        return r.askedAgain ? "because the requester asked again"
                : "though the requester did not ask again: the request reached the responder twice";
    }

    /** Records a READ response or atomic ACK as seen. */
    private void answered(RocePacket p) {
        int slot = answers.find(p.psn);
        if (slot < 0) {
            answers.first(p.psn, p.frame, p.time, p.ipId, p.icrcStored, 0);
        } else {
            answers.again(slot, p.frame, p.time, p.ipId, p.icrcStored);
        }
    }

    /**
     * Whether an answer seen again is the same packet as before (the same IPv4 identification and ICRC: a copy the
     * network made), reported as such; a replay is a packet the responder sent anew.
     */
    private boolean networkCopyOfAnswer(RocePacket p, String what) {
        int slot = answers.find(p.psn);
        if (slot < 0 || p.icrcStored != answers.icrc(slot) || p.ipId <= 0 || p.ipId != answers.ipId(slot)) {
            return false;
        }
        duplicatePackets++;
        lastEvent = Event.DUPLICATE;
        findings.add(new Finding(FindingKind.DUPLICATE, p.frame, p.time, p.psn, p.psn, 1,
                what + " PSN " + Psn.format(p.psn) + " seen again, the same packet as #" + answers.lastFrame(slot)
                        + " (same IP identification " + p.ipId + "): a copy made on the way", new long[] {answers.lastFrame(slot)}));
        answers.again(slot, p.frame, p.time, p.ipId, p.icrcStored);
        return true;
    }

    private void implied(RocePacket p, String words) {
        implied(p.frame, p.time, p.psn, words);
    }

    private void implied(long frame, long time, int psn, String words) {
        impliedPsn = psn;
        impliedFrame = frame;
        impliedTime = time;
        impliedWords = words;
        latestCauseTime = time;
    }

    /** A round-trip sample for the request at {@code psn}, if it was sent once and asked for this answer. */
    private void sample(int psn, long now) {
        int slot = sent.find(psn);
        if (slot >= 0 && sent.sends(slot) == 1 && !sent.has(slot, SentRequests.SAMPLED)) {
            sent.mark(slot, SentRequests.SAMPLED);
            roundTrips.record(now - sent.firstTime(slot));
        }
    }

    /** The responder has everything up to {@code psn}. */
    private void progress(int psn, long now) {
        if (!started) {
            return;
        }
        if (!acked || Psn.after(psn, ackedThrough)) {
            if (Psn.after(psn, Psn.add(nextPsn, -1))) {
                return; // answers a request the capture never showed
            }
            acked = true;
            ackedThrough = psn;
            lastProgressTime = now;
            graph.acked.add(now, position(psn));
            gaps.acknowledged(psn);
            reads.answeredThrough(psn);
            if (rnrOpen && Psn.after(psn, Psn.add(rnrPsn, -1))) {
                closeRnr();
            }
        }
    }

    private void data(long time, int bytes) {
        dataBytes += bytes;
        lastTime = Math.max(lastTime, time);
        if (bytes > 0) {
            throughput.add(time, bytes);
        }
    }

    private void gapClosed(PsnGap g) {
        String psns = range(g.from, g.last());
        StringBuilder words = new StringBuilder(160).append(g.length == 1 ? "PSN " : "PSNs ").append(psns)
                .append(g.length == 1 ? " was" : " (" + g.length + ") were").append(" not captured before a later PSN");
        if (g.readSpan > 0) {
            words.append(" (").append(g.readSpan).append(" of them the response PSNs of a READ in it)");
        }
        long missing = g.length - g.closed();
        if (g.resent > 0) {
            words.append("; ").append(g.resent).append(" lost before the capture point and resent")
                    .append(g.firstResentFrame == g.lastResentFrame ? " at #" + g.firstResentFrame
                            : " at #" + g.firstResentFrame + "..#" + g.lastResentFrame)
                    .append(", ").append(Timeline.duration(g.firstResentTime - g.openedTime)).append(" later");
        }
        if (g.reordered > 0) {
            words.append("; ").append(g.reordered).append(" came late (reordered)");
        }
        if (g.acknowledgedUnseen > 0) {
            words.append("; ").append(g.acknowledgedUnseen)
                    .append(" acknowledged by the responder though never captured (the capture, not the network, missed them)");
        }
        if (missing > 0) {
            words.append("; ").append(missing).append(" never seen by the end of the capture");
        }
        findings.add(new Finding(FindingKind.PSN_GAP, g.openedFrame, g.openedTime, g.from, g.last(), g.packets(),
                words.toString(), g.firstResentFrame >= 0 ? new long[] {g.firstResentFrame} : new long[0]));
    }

    private static String range(int from, int to) {
        return from == to ? Psn.format(from) : Psn.format(from) + ".." + Psn.format(to);
    }

    private static boolean isAtomic(Opcode op) {
        return op.operation() == Operation.COMPARE_SWAP || op.operation() == Operation.FETCH_ADD;
    }

    /** Where {@code psn} is, counted from the requester's first PSN without wrapping. */
    long position(int psn) {
        return nextPosition + Psn.diff(psn, nextPsn);
    }

    // ---- the end ----------------------------------------------------------------------------------------

    /** Whether requests are out that the responder has not answered. */
    boolean outstanding() {
        return started && !unreliable && (acked ? Psn.distance(ackedThrough, nextPsn) > 1 : true);
    }

    /** What the packet that ended a stall was, in words. */
    String lastEventWords() {
        return switch (lastEvent) {
            case RESEND -> "a resend, " + lastResendWords;
            case REQUEST -> "the next new request";
            case DUPLICATE -> "a copy of an earlier packet";
            case LATE -> "a late packet";
            case ACK -> "the responder's ACK";
            case NAK -> "the responder's NAK";
            case RNR_NAK -> "the responder's RNR NAK";
            case READ_RESPONSE -> "the READ response";
            case ATOMIC_ACK -> "the atomic ACK";
            case OTHER -> "another packet";
        };
    }

    /** The capture ended: whatever is still open is reported. */
    void end(boolean responderSeen) {
        closeEpisode();
        reportUnansweredNak();
        closeRnr();
        gaps.closeAll();
        if (started && !unreliable && responderSeen && outstanding()) {
            int from = acked ? Psn.next(ackedThrough) : firstPsn;
            int to = Psn.add(nextPsn, -1);
            findings.add(new Finding(FindingKind.UNACKNOWLEDGED, lastRequestFrame, lastRequestTime, from, to,
                    Psn.distance(from, nextPsn), (from == to ? "PSN " + Psn.format(from) + " was" : "PSNs " + range(from, to)
                    + " (" + Psn.distance(from, nextPsn) + ") were") + " never acknowledged by the end of the capture"
                    + " (the last request was sent at #" + lastRequestFrame + ", " + timeline.at(lastRequestTime) + ")",
                    new long[0]));
        }
    }

    boolean started() {
        return started;
    }

    boolean unreliable() {
        return unreliable;
    }

    /** Payload bytes of new requests and READ responses per second, from the first packet to the last. */
    double goodput() {
        long span = lastTime - firstTime;
        return span > 0 ? dataBytes * 1e9 / span : 0;
    }
}
