package io.jrxe.tools.conformance;

import io.jrxe.wire.psn.Psn;

/**
 * What one case's packets are made from: the target's QP as the exchange told it (QPN, send PSN, buffer, keys),
 * the tester's own QPN and the PSN it started the target's receive side at, and the UD QP when the target has one
 * (-1 otherwise).
 */
public record CaseContext(int testerQpn, int startPsn, int targetQpn, int targetSendPsn, long bufferAddress, int mainRkey,
                          TargetKeys keys, int udQpn, int mtu) {
    /** The PSN {@code offset} after the start (wrapping at 2^24). */
    public int psn(int offset) {
        return Psn.add(startPsn, offset);
    }

    /** Where a PSN lies relative to the start, as the rows print it: "+0", "-1". */
    public String relative(int psn) {
        int d = Psn.diff(psn, startPsn);
        return d >= 0 ? "+" + d : Integer.toString(d);
    }
}
