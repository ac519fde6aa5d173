package io.jrxe.tools.conformance;

import io.jrxe.wire.header.AethSyndrome;
import io.jrxe.wire.opcode.Opcode;

import java.util.List;

/**
 * Compares what the target sent with what a case expects: the same number of answers, in order, each of the
 * expected kind at the expected PSN, with the expected syndrome, original value or data, and a good ICRC.
 */
public final class AnswerMatcher {
    private AnswerMatcher() {
    }

    /** Null when the answers are exactly the expected ones; else what differs, in a few words. */
    public static String mismatch(List<Expect> expected, List<Answer> got, CaseContext c) {
        for (int i = 0; i < Math.min(expected.size(), got.size()); i++) {
            String problem = mismatch(expected.get(i), got.get(i), c);
            if (problem != null) {
                return problem;
            }
        }
        if (got.size() > expected.size()) {
            return expected.isEmpty() ? "an answer where silence was expected"
                    : "more answers than expected (" + got.size() + " for " + expected.size() + ")";
        }
        if (got.size() < expected.size()) {
            return got.isEmpty() ? "no answer" : "fewer answers than expected (" + got.size() + " for " + expected.size() + ")";
        }
        return null;
    }

    /** Null when this answer is the expected one. */
    public static String mismatch(Expect e, Answer a, CaseContext c) {
        if (a.malformed() != null) {
            return "a malformed answer";
        }
        if (!a.icrcOk()) {
            return "an answer with a bad ICRC";
        }
        return switch (e) {
            case Expect.Ack x -> syndrome(a, c, x.psn(), AethSyndrome.ack(AethSyndrome.CREDITS_INVALID), true);
            case Expect.Nak x -> syndrome(a, c, x.psn(), AethSyndrome.nak(x.code()), false);
            case Expect.RnrNak x -> syndrome(a, c, x.psn(), AethSyndrome.rnrNak(x.timer()), false);
            case Expect.AtomicAck x -> {
                String p = kindAndPsn(a, c, Opcode.RC_ATOMIC_ACKNOWLEDGE, x.psn());
                yield p != null ? p : !AethSyndrome.isAck(a.syndrome()) ? "an atomic ACK that is not an ACK"
                        : a.original() != x.original() ? String.format("original value 0x%x, not 0x%x", a.original(), x.original())
                        : null;
            }
            case Expect.ReadResponse x -> {
                String p = kindAndPsn(a, c, x.opcode(), x.psn());
                yield p != null ? p : data(a.payload(), x);
            }
        };
    }

    /** An ACK, NAK or RNR NAK: for an ACK only the type counts (credits vary by responder); a NAK's code must match. */
    private static String syndrome(Answer a, CaseContext c, int psn, int syndrome, boolean typeOnly) {
        String p = kindAndPsn(a, c, Opcode.RC_ACKNOWLEDGE, psn);
        if (p != null) {
            return p;
        }
        boolean same = typeOnly ? AethSyndrome.type(a.syndrome()) == AethSyndrome.type(syndrome) : a.syndrome() == syndrome;
        return same ? null : AethSyndrome.describe(a.syndrome()) + " instead of " + AethSyndrome.describe(syndrome);
    }

    private static String kindAndPsn(Answer a, CaseContext c, Opcode expected, int psn) {
        if (a.opcode() != expected) {
            return a.opcode().displayName() + " instead of " + expected.displayName();
        }
        return a.psn() == c.psn(psn) ? null : "PSN " + c.relative(a.psn()) + " instead of " + (psn >= 0 ? "+" + psn : psn);
    }

    private static String data(byte[] payload, Expect.ReadResponse x) {
        if (payload.length != x.length()) {
            return payload.length + " bytes of data instead of " + x.length();
        }
        for (int i = 0; i < payload.length; i++) {
            if (payload[i] != x.expectedByte(i)) {
                return String.format("data byte %d is 0x%02x, not 0x%02x", i, payload[i] & 0xFF, x.expectedByte(i) & 0xFF);
            }
        }
        return null;
    }
}
