package io.jrxe.tools.rdmacm;

import io.jrxe.verbs.Access;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.cm.CmId;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * What ucmatose's and udaddy's connections (struct cmatest_node) share: the identifier, whether it is up, a PD,
 * and one buffer that every send and receive of the connection uses.
 */
abstract class CmTestNode implements AutoCloseable {
    final int index;
    CmId id;
    boolean connected;
    Pd pd;
    private Arena arena;
    MemorySegment mem;
    Mr mr;

    CmTestNode(int index) {
        this.index = index;
    }

    /** create_message: the buffer of {@code bytes}, registered for local writes. */
    void allocate(long bytes) throws VerbsException {
        arena = Arena.ofShared();
        mem = arena.allocate(bytes, 64);
        mr = pd.regMr(mem, Access.LOCAL_WRITE);
    }

    /** post_recvs: {@code count} receives of {@code length} bytes into the buffer. */
    void postRecvs(int count, int length) throws VerbsException {
        if (count == 0) {
            return;
        }
        RecvWr recv = new RecvWr(1);
        recv.wrId = index;
        recv.sgl.add(mem.address(), length, mr.lkey());
        for (int i = 0; i < count; i++) {
            id.qp().postRecv(recv);
        }
    }

    /** The node's CQs (and whatever else it made on its PD), closed after its QP. */
    abstract void closeQueues();

    /** destroy_node: the QP, the CQs, the buffer, the PD, then the identifier. */
    @Override
    public void close() {
        if (id == null) {
            return;
        }
        Quietly.close(id::destroyQp);
        closeQueues();
        Quietly.close(mr);
        if (arena != null) {
            arena.close();
        }
        Quietly.close(pd);
        Quietly.close(id);
    }
}
