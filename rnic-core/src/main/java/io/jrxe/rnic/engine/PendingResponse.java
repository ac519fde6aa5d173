package io.jrxe.rnic.engine;

import io.jrxe.rnic.memory.MptEntry;

/** One response waiting in a {@link ResponseQueue}: a preallocated slot, rewritten for each use. */
final class PendingResponse {
    ResponseKind kind;
    /** The PSN of the (next) packet. */
    int psn;
    int syndrome;
    int msn;
    long atomicOriginal;
    // A READ response: where the reply starts (its first packet is FIRST or ONLY), where it ends,
    // the bytes still to send and where they are, through which R_Key.
    int startPsn;
    int lastPsn;
    MptEntry entry;
    int rkey;
    long va;
    long remaining;
}
