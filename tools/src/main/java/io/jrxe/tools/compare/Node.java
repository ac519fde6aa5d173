package io.jrxe.tools.compare;

import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.VerbsException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One end of a comparison's connections, through the verbs API only: a context (jrxe's or the kernel's), a PD, a
 * registered buffer the steps read and write, and the GID its QPs are reached at. Every step's QPs are made in it.
 */
final class Node implements AutoCloseable {
    static final int BUFFER = 64 * 1024;
    static final int ACCESS = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC;

    final String name;
    final Context ctx;
    final GidEntry gid;
    final Pd pd;
    final MemorySegment memory;
    final Mr mr;

    Node(String name, Context ctx, GidEntry gid, Arena arena) throws VerbsException {
        this.name = name;
        this.ctx = ctx;
        this.gid = gid;
        this.pd = ctx.allocPd();
        this.memory = arena.allocate(BUFFER, 4096);
        this.mr = pd.regMr(memory, ACCESS);
    }

    /** The address of the byte at {@code offset} of the buffer (its iova: the MR is registered at its address). */
    long at(long offset) {
        return memory.address() + offset;
    }

    @Override
    public void close() {
        try {
            mr.close();
            pd.close();
        } catch (VerbsException e) {
            // the context is closed next, with whatever it still holds
        }
    }
}
