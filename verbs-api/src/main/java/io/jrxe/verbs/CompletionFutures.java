package io.jrxe.verbs;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Completions as futures: a thread of its own polls one CQ and completes, for each completion, the future that was
 * asked for its wr_id ({@link #expect}); a completion nobody asked for goes to a callback. For programs that would
 * rather compose futures than poll (the way Netty's and JUCX's callbacks are used); it allocates a future and a
 * copy of the completion per work request, so a program on the hot path polls the CQ itself instead.
 *
 * <pre>{@code
 * try (CompletionFutures completions = CompletionFutures.start(cq)) {
 *     CompletableFuture<WorkCompletion> done = completions.expect(wr.wrId);   // before posting
 *     qp.postSend(wr);
 *     WorkCompletion wc = done.get(1, TimeUnit.SECONDS);
 * }
 * }</pre>
 *
 * Ask for signaled work requests and for receives only: an unsignaled one has no completion, and its future would
 * never complete. While it runs, nothing else may poll the CQ. Thread-safe.
 */
public final class CompletionFutures implements AutoCloseable {
    private static final long LOOK_MILLIS = 100;

    private final Cq cq;
    private final Consumer<WorkCompletion> unexpected;
    private final ConcurrentHashMap<Long, CompletableFuture<WorkCompletion>> pending = new ConcurrentHashMap<>();
    private final Thread poller;
    private volatile boolean closed;

    private CompletionFutures(Cq cq, Consumer<WorkCompletion> unexpected) {
        this.cq = cq;
        this.unexpected = unexpected;
        this.poller = Thread.ofPlatform().daemon().name("jrxe-completions-" + cq).unstarted(this::pollUntilClosed);
    }

    /** Starts polling {@code cq}; a completion nobody asked for is dropped. */
    public static CompletionFutures start(Cq cq) {
        return start(cq, wc -> { });
    }

    /** Starts polling {@code cq}; a completion nobody asked for goes to {@code unexpected}, on the polling thread. */
    public static CompletionFutures start(Cq cq, Consumer<WorkCompletion> unexpected) {
        if (cq == null || unexpected == null) {
            throw new IllegalArgumentException("completion futures need a CQ and a callback");
        }
        CompletionFutures f = new CompletionFutures(cq, unexpected);
        f.poller.start();
        return f;
    }

    /**
     * The completion of the work request {@code wrId}, posted after this call: a copy the program may keep. A
     * future that completes with an error status still completes normally; look at its status.
     *
     * @throws IllegalStateException when a completion for this wr_id is awaited already, or after {@link #close}
     */
    public CompletableFuture<WorkCompletion> expect(long wrId) {
        if (closed) {
            throw new IllegalStateException("the completion futures of " + cq + " are closed");
        }
        CompletableFuture<WorkCompletion> f = new CompletableFuture<>();
        if (pending.putIfAbsent(wrId, f) != null) {
            throw new IllegalStateException("a completion of wr_id " + wrId + " is awaited already");
        }
        return f;
    }

    private void pollUntilClosed() {
        WorkCompletion[] wcs = new WorkCompletion[16];
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
        try {
            while (!closed) {
                int n = cq.poll(wcs, LOOK_MILLIS, TimeUnit.MILLISECONDS);
                for (int i = 0; i < n; i++) {
                    WorkCompletion wc = new WorkCompletion(wcs[i]);
                    CompletableFuture<WorkCompletion> f = pending.remove(wc.wrId());
                    if (f != null) {
                        f.complete(wc);
                    } else {
                        unexpected.accept(wc);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            pending.values().forEach(f -> f.completeExceptionally(e));
        }
    }

    /** Stops the polling thread; futures still waiting complete with a CancellationException. Idempotent. */
    @Override
    public void close() {
        closed = true;
        poller.interrupt();
        try {
            poller.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        pending.values().forEach(f -> f.completeExceptionally(new CancellationException("the completion futures of "
                + cq + " were closed before this completion came")));
        pending.clear();
    }
}
