package io.jrxe.verbs.nativ;

import io.jrxe.verbs.VerbsException;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The close of one native verbs object, done once: a second ibv_destroy_* of the same object would free memory
 * twice. A close the kernel refuses (EBUSY: QPs still use this CQ) may be tried again; a close after a successful
 * one does nothing.
 */
final class CloseOnce {
    @FunctionalInterface
    interface Destroy {
        void run() throws VerbsException;
    }

    private final AtomicBoolean closed = new AtomicBoolean();

    void close(Destroy destroy) throws VerbsException {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            destroy.run();
        } catch (VerbsException | RuntimeException e) {
            closed.set(false);
            throw e;
        }
    }
}
