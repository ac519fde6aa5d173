package io.jrxe.tools.analyze;

/** What a finding is about; each kind has one severity and a name that the JSON and the text use. */
enum FindingKind {
    PSN_GAP(Severity.WARNING, "psn_gap", "PSNs not captured"),
    LOST_ON_THE_WAY(Severity.WARNING, "lost", "packets that never arrived"),
    DROPPED_BY_RECEIVER(Severity.WARNING, "dropped", "packets the receiver dropped"),
    RESENT(Severity.WARNING, "resent", "retransmissions"),
    REORDERED(Severity.WARNING, "reordered", "packets out of order"),
    DUPLICATE(Severity.WARNING, "duplicate", "duplicated packets"),
    SEQUENCE_NAK(Severity.WARNING, "sequence_nak", "PSN sequence NAKs"),
    RNR_NAK(Severity.WARNING, "rnr_nak", "RNR NAK episodes"),
    FATAL_NAK(Severity.ERROR, "fatal_nak", "NAKs that end the connection"),
    READ_RESPONSE_GAP(Severity.WARNING, "read_response_gap", "READ responses not captured"),
    UNACKNOWLEDGED(Severity.WARNING, "unacknowledged", "requests never acknowledged"),
    READ_REPLAY(Severity.NOTE, "read_replay", "READs answered again"),
    ATOMIC_REPLAY(Severity.NOTE, "atomic_replay", "atomics answered again"),
    ATOMIC_REPLAY_DIFFERS(Severity.ERROR, "atomic_replay_differs", "atomics answered again with another value"),
    BAD_ICRC(Severity.ERROR, "bad_icrc", "packets with a bad ICRC"),
    MALFORMED(Severity.ERROR, "malformed", "malformed packets"),
    CNP(Severity.NOTE, "cnp", "congestion notification packets"),
    ECN(Severity.NOTE, "ecn", "packets marked congestion experienced"),
    CM_HANDSHAKE(Severity.CHAT, "cm_handshake", "CM handshakes"),
    CM_RETRY(Severity.WARNING, "cm_retry", "CM messages sent again"),
    CM_REJECT(Severity.WARNING, "cm_reject", "CM rejections"),
    CM_INCOMPLETE(Severity.WARNING, "cm_incomplete", "CM handshakes left unfinished"),
    CM_DISCONNECT(Severity.CHAT, "cm_disconnect", "CM disconnections");

    private final Severity severity;
    private final String id;
    private final String plural;

    FindingKind(Severity severity, String id, String plural) {
        this.severity = severity;
        this.id = id;
        this.plural = plural;
    }

    Severity severity() {
        return severity;
    }

    /** The name in the JSON. */
    String id() {
        return id;
    }

    /** What several of them are called, for "and N more ..." lines. */
    String plural() {
        return plural;
    }
}
