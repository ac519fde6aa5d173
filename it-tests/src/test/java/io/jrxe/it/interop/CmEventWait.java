package io.jrxe.it.interop;

import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.cm.CmEvent;
import io.jrxe.verbs.cm.CmEventChannel;
import io.jrxe.verbs.cm.CmEventType;

import java.io.PrintStream;
import java.util.concurrent.TimeUnit;

/** Waiting for the next CM event of a channel, printed as rping prints events, and checking its type. */
final class CmEventWait {
    /** Long enough for a peer under TCG; every wait ends by it. */
    static final int TIMEOUT_SECONDS = 30;

    private CmEventWait() {
    }

    /** The next event, printed as "{@code who}: RDMA_CM_EVENT_..."; it must be of {@code type}. */
    static CmEvent expect(CmEventChannel channel, CmEventType type, String who, PrintStream out)
            throws VerbsException, InterruptedException {
        CmEvent e = channel.getEvent(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (e == null) {
            throw new AssertionError(who + ": no CM event within " + TIMEOUT_SECONDS + " s (waiting for "
                    + type.librdmacmName() + ")");
        }
        out.println(who + ": " + e);
        if (e.type() != type) {
            throw new AssertionError(who + ": " + e + " where " + type.librdmacmName() + " was expected");
        }
        return e;
    }
}
