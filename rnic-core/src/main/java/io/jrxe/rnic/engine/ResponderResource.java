package io.jrxe.rnic.engine;

import io.jrxe.rnic.memory.MptEntry;

/**
 * What a responder keeps of a READ or atomic request (max_dest_rd_atomic of them, IBTA's
 * "responder resources"), so that a duplicate request can be answered again: a READ's response
 * replayed from any PSN, an atomic's original value sent again without redoing the operation.
 */
final class ResponderResource {
    static final int FREE = 0;
    static final int READ = 1;
    static final int ATOMIC = 2;

    int kind = FREE;
    int firstPsn;
    int lastPsn;
    long va;
    int rkey;
    long length;
    long atomicOriginal;
    /** Reply progress of a READ: next response PSN and how many bytes were sent. */
    int replyPsn;
    long replyOffset;
    MptEntry entry;

    void clear() {
        kind = FREE;
        entry = null;
    }

    boolean covers(int psn) {
        return kind != FREE && io.jrxe.wire.psn.Psn.distance(firstPsn, psn) <= io.jrxe.wire.psn.Psn.distance(firstPsn, lastPsn);
    }
}
