package io.jrxe.verbs.emulated;

import io.jrxe.rnic.NicResources;
import io.jrxe.verbs.VerbsException;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The close of one verbs object, done once: the first close destroys it; a close the NIC refuses (EBUSY: QPs
 * still use this CQ) may be tried again once the reason is gone; a close after a successful one, or after the
 * device itself was closed (which took every object with it), does nothing.
 */
final class CloseOnce {
    private final AtomicBoolean closed = new AtomicBoolean();

    void close(EmulatedDevice device, NicResources rnic, Commands.Action destroy) throws VerbsException {
        if (!closed.compareAndSet(false, true) || device.isClosed()) {
            return;
        }
        try {
            Commands.run(rnic, destroy);
        } catch (VerbsException e) {
            if (!device.isClosed()) {
                closed.set(false);
                throw e;
            }
        }
    }

    boolean isClosed() {
        return closed.get();
    }
}
