package io.jrxe.rnic.cc;

import io.jrxe.wire.stats.CounterRegistry;
import io.jrxe.wire.time.NicTime;

/**
 * The NIC's congestion-control part: whether a QP may put another packet on the wire now, and
 * what the NIC does with the network's congestion signals (an ECN Congestion Experienced mark on
 * a received packet, a CNP from a peer). The requester asks its QP's {@link Flow} before every
 * packet it sends; the receive path hands the flow the signals. A NIC gets it from its
 * context ({@code NicContext.congestionControl}); the default is {@link DeviceWindow} ({@code none}),
 * the others {@link Dcqcn} ({@code dcqcn}) and {@link Timely} ({@code timely}), all by name through
 * {@link CongestionControlChoice}.
 * Everything here runs on the NIC thread.
 */
public interface CongestionControl {
    /** The name {@code devinfo -v} and the docs use for it. */
    String name();

    /**
     * A QP was created: its flow, which keeps the QP's own state of this part.
     *
     * @param qpn  the QP's number (seeds, traces)
     * @param wake schedules the QP's task: a flow that said no calls it when the QP may send again
     */
    Flow attach(int qpn, Runnable wake);

    /**
     * Where the part reports each change of a QP's rate from now on (the NIC's trace); QPs attached
     * before keep what they had. A part without rates ignores it.
     */
    default void reportRateChanges(RateChangeListener listener) {
    }

    /** Makes the part of one NIC: its clock and timers, and the registry its counters go to. */
    @FunctionalInterface
    interface Factory {
        CongestionControl create(NicTime time, CounterRegistry counters);
    }

    /** One QP's share of the part's state. */
    interface Flow {
        /**
         * Whether the QP may send one more packet now. False parks the QP: the flow wakes it when
         * it may send again.
         */
        boolean mayTransmit();

        /**
         * Whether the QP may resend one more packet (go-back-N) now; false parks the QP as {@link #mayTransmit}
         * does. A window has counted these packets already and lets them go; DCQCN's rate holds them as it holds
         * new ones, as a NIC's rate limiter holds everything its QP sends: a rewind of a whole window sent at once
         * is the burst that overflows the congested queue again.
         */
        default boolean mayResend() {
            return true;
        }

        /**
         * Whether the QP may send one more packet of a READ's response now; false parks the QP as
         * {@link #mayTransmit} does. A rate may hold responses back; a window of unacknowledged
         * requests must not: responses are never acknowledged, and the room they would wait for can
         * be held by this NIC's own requests, which the peer answers only once it has this response
         * (two NICs reading from each other would each wait for the other until their ACK timers ran out).
         */
        boolean mayRespond();

        /**
         * True when the part is close to holding packets back: a requester then asks for an ACK at
         * the end of a message once a few packets went since its last ask, so that room comes back soon.
         */
        boolean nearLimit();

        /**
         * True when the part will refuse the QP's next packet once the one being built is on the wire
         * (it was allowed). The requester then asks for an ACK on it: a QP held in the middle of a
         * message would otherwise wait for room with its ACK timer running while its responder, seeing
         * no message end and no AckReq, has no reason to answer, and the timer would fire on a network
         * that lost nothing.
         */
        boolean refusesNext();

        /**
         * A new packet the QP was allowed went on the wire, this many bytes from its BTH to its
         * payload's padding: what a rate is charged.
         */
        default void transmitted(int bytes) {
        }

        /** A resent packet the QP was allowed went on the wire, this many bytes as {@link #transmitted} counts them. */
        default void resent(int bytes) {
        }

        /**
         * One round trip of the QP's, in nanoseconds of the NIC's clock: from a new packet that asked
         * for an ACK going on the wire to the first ACK, READ response or atomic ACK that covers it.
         * Resent packets give none (Karn's rule: an answer could be to either copy). The RTT-based
         * part's input; the others ignore it.
         */
        default void roundTripMeasured(long nanos) {
        }

        /** The peer acknowledged this many more of the QP's packets (a go-back-N rewind acknowledges none). */
        void acknowledged(int packets);

        /**
         * The QP's task ended its turn: what the part let it send and it did not (it ran out of work, out of
         * budget, or went to ERR) is the others' again.
         */
        void turnEnded();

        /**
         * The packet the QP just sent (after {@link #inFlight} counted it) asked for an ACK: the peer will
         * acknowledge every packet of the QP's now in flight. Packets sent after the last such ask are
         * acknowledged only once the QP asks again.
         */
        default void ackRequested() {
        }

        /** The QP's unacknowledged packets now (it sent, was acknowledged, went back or was flushed). */
        void inFlight(int packets);

        /** A CNP for this QP arrived: a peer saw its packets marked (the reaction point's input). */
        void congestionNotified();

        /** A packet for this QP arrived with the ECN Congestion Experienced mark (the notification point's input). */
        void congestionExperienced();

        /** The QP is destroyed: it holds nothing of the part's any more. */
        void detach();
    }
}
