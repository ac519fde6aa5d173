package io.jrxe.tools.analyze;

/**
 * Why a requester sent a PSN again, as the capture shows it.
 *
 * @param kind    what triggered it
 * @param frame   the frame of the trigger (the NAK, the response that implied one, the PSN's last send), or -1
 * @param waited  how long after the trigger the resend came, in nanoseconds
 * @param words   the sentence that says it, e.g. "after the sequence NAK #12 (expected PSN 0x000064), 31.0 us later"
 */
record ResendCause(Kind kind, long frame, long waited, String words) {
    enum Kind {
        SEQUENCE_NAK("sequence_nak"), RNR_NAK("rnr_nak"), IMPLIED_NAK("implied_nak"), ACK_TIMEOUT("ack_timeout");

        private final String id;

        Kind(String id) {
            this.id = id;
        }

        String id() {
            return id;
        }
    }
}
