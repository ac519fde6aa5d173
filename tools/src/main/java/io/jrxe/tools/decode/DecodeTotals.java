package io.jrxe.tools.decode;

import io.jrxe.wire.dissect.DissectedPacket;

/**
 * The closing line of `jrxe decode`. A packet sent to UDP port 4791 counts as RoCE; its ICRC is
 * either ok or bad, and one that could not be checked (too short for a BTH and an ICRC) is bad.
 */
final class DecodeTotals {
    private long packets;
    private long roce;
    private long icrcOk;
    private long icrcBad;
    private long other;

    void count(DissectedPacket p) {
        packets++;
        if (p.isAddressedToRoce()) {
            roce++;
            if (p.icrcOk()) {
                icrcOk++;
            } else {
                icrcBad++;
            }
        } else {
            other++;
        }
    }

    long icrcBad() {
        return icrcBad;
    }

    String line() {
        return "packets=" + packets + " roce=" + roce + " icrc_ok=" + icrcOk + " icrc_bad=" + icrcBad + " other=" + other;
    }
}
