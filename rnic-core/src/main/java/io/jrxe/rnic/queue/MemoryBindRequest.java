package io.jrxe.rnic.queue;

import io.jrxe.verbs.SendWr;

/**
 * What a BIND_MW or REG_MR work request asks of the NIC: the window's or region's key, the new key's low byte, the
 * region it lies in, the range and the access. A WQE slot makes one the first time such a request is posted into it
 * and reuses it after, so the many QPs that never bind pay nothing for it.
 */
public final class MemoryBindRequest {
    /** BIND_MW: the window's R_Key. */
    public int mwKey;
    /** The key to give the window or region (its low byte is the new tag). */
    public int newKey;
    /** BIND_MW: the L_Key of the region the window lies in; REG_MR: the region's key. */
    public int mrKey;
    public long addr;
    public long length;
    public int access;

    void copyFrom(SendWr wr) {
        mwKey = wr.mwRkey;
        newKey = wr.newRkey;
        mrKey = wr.mrLkey;
        addr = wr.bindAddr;
        length = wr.bindLength;
        access = wr.bindAccess;
    }
}
