package io.jrxe.tools.rdmacm;

import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.cm.CmEvent;
import io.jrxe.verbs.cm.CmEventChannel;

import java.util.concurrent.TimeUnit;

/**
 * rping's cm_thread: takes the events of a channel as they come and hands each to a handler on a thread of its
 * own. A handler that answers false ends the pump, as rping's exit(ret) ends the program after an event it
 * cannot go on from (REJECTED, UNREACHABLE, ...); the program's waits then see {@link #failed()}.
 */
final class CmEventPump implements AutoCloseable {
    /** Handles one event; false when the program must stop. */
    interface Handler {
        boolean handle(CmEvent event);
    }

    /** How long one wait for an event lasts before the thread looks whether it is to stop. */
    private static final long POLL_MILLIS = 100;

    private final CmEventChannel channel;
    private final Handler handler;
    private final Runnable onFailure;
    private final Thread thread;
    private volatile boolean stopping;
    private volatile boolean failed;

    /** @param onFailure run once the handler said stop (or the channel failed): wakes whatever waits */
    CmEventPump(CmEventChannel channel, Handler handler, Runnable onFailure, java.io.PrintWriter err) {
        this.channel = channel;
        this.handler = handler;
        this.onFailure = onFailure;
        this.thread = Thread.ofPlatform().daemon().name("cm events").unstarted(() -> pump(err));
    }

    void start() {
        thread.start();
    }

    private void pump(java.io.PrintWriter err) {
        try {
            while (!stopping) {
                CmEvent e = channel.getEvent(POLL_MILLIS, TimeUnit.MILLISECONDS);
                if (e != null && !stopping && !handler.handle(e)) {
                    fail();
                    return;
                }
            }
        } catch (VerbsException e) {
            err.println("rdma_get_cm_event: " + e.getMessage());
            err.flush();
            fail();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void fail() {
        failed = true;
        onFailure.run();
    }

    /** True once an event (or the channel) ended the program. */
    boolean failed() {
        return failed;
    }

    /** Stops the thread and waits for it (at most one poll's time and a little). */
    @Override
    public void close() throws InterruptedException {
        stopping = true;
        if (Thread.currentThread() != thread) {
            thread.join(10 * POLL_MILLIS);
        }
    }
}
