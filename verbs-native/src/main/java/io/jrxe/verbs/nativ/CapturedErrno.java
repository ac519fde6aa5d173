package io.jrxe.verbs.nativ;

import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;

/** errno as the linker captures it right after a downcall (Linker.Option.captureCallState). */
final class CapturedErrno {
    static final StructLayout STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private CapturedErrno() {
    }

    static int read(MemorySegment state) {
        return (int) ERRNO.get(state, 0L);
    }

    /** A downcall threw something other than an error: only a bug here (a wrong signature) does that. */
    static RuntimeException unexpected(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException("native call failed: " + t, t);
    }
}
