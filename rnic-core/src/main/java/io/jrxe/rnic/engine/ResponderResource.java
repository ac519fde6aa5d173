package io.jrxe.rnic.engine;

import io.jrxe.rnic.memory.MptEntry;
import io.jrxe.wire.psn.Psn;

/**
 * What a responder keeps of a READ or atomic request (max_dest_rd_atomic of them, IBTA's
 * "responder resources"), so that a duplicate request can be answered again: a READ's response
 * replayed from any PSN, an atomic's original value sent again without redoing the operation.
 */
final class ResponderResource {
    ResourceKind kind = ResourceKind.FREE;
    int firstPsn;
    int lastPsn;
    long va;
    int rkey;
    long length;
    long atomicOriginal;
    MptEntry entry;

    void clear() {
        kind = ResourceKind.FREE;
        entry = null;
    }

    boolean covers(int psn) {
        return kind != ResourceKind.FREE && Psn.distance(firstPsn, psn) <= Psn.distance(firstPsn, lastPsn);
    }
}
