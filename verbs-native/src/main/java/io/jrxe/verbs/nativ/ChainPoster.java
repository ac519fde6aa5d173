package io.jrxe.verbs.nativ;

import io.jrxe.verbs.Errno;
import io.jrxe.verbs.VerbsException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * Posting a chain of jrxe work requests through one of the provider's post functions
 * (post_send, post_recv, post_srq_recv): a batch of native WR slots allocated once, filled from
 * the chain, linked by their {@code next} pointers and posted; a chain longer than the batch goes
 * in several posts. When a work request is bad (refused here, or by the provider through
 * bad_wr), those before it are posted and the exception names its index in the chain. A work
 * request that must go another way ({@link #postsAlone}) ends the batch and is posted on its own,
 * so the chain keeps its order.
 *
 * @param <W> SendWr or RecvWr
 */
abstract class ChainPoster<W> {
    private final MemorySegment function;
    private final MemorySegment queue;
    private final long nextOffset;
    private final String what;
    final MemorySegment[] wrs;
    private final MemorySegment badWr;

    /** @param what the verb and queue for messages ("post_send on QP 0x000011"), made once */
    ChainPoster(Arena arena, MemorySegment function, MemorySegment queue, int maxWr, MemoryLayout wrLayout, long nextOffset,
                String what) {
        this.what = what;
        this.function = function;
        this.queue = queue;
        this.nextOffset = nextOffset;
        wrs = new MemorySegment[Math.max(1, Math.min(maxWr, 16))];
        for (int i = 0; i < wrs.length; i++) {
            wrs[i] = arena.allocate(wrLayout);
        }
        badWr = arena.allocate(ADDRESS);
    }

    /** Fills slot {@code slot} from {@code wr}: null, or why it cannot be posted. */
    abstract String encode(W wr, int slot);

    abstract W next(W wr);

    /** Whether {@code wr} is posted by {@link #postAlone} instead (a work request ibv_send_wr cannot carry). */
    boolean postsAlone(W wr) {
        return false;
    }

    /** Posts one work request of those {@link #postsAlone} picks; {@code index} is its place in the chain. */
    void postAlone(W wr, int index, String what) throws VerbsException {
        throw new IllegalStateException("no other path");
    }

    final synchronized void post(W first) throws VerbsException {
        int posted = 0;
        W w = first;
        while (w != null) {
            if (postsAlone(w)) {
                postAlone(w, posted, what);
                posted++;
                w = next(w);
                continue;
            }
            int n = 0;
            String refused = null;
            while (w != null && n < wrs.length && !postsAlone(w)) {
                refused = encode(w, n);
                if (refused != null) {
                    break;
                }
                if (n > 0) {
                    wrs[n - 1].set(ADDRESS, nextOffset, wrs[n]);
                }
                n++;
                w = next(w);
            }
            if (n > 0) {
                wrs[n - 1].set(ADDRESS, nextOffset, MemorySegment.NULL);
                badWr.set(ADDRESS, 0, MemorySegment.NULL);
                int rc = DataPathCalls.post(function, queue, wrs[0], badWr);
                if (rc != 0) {
                    throw NativeVerbsException.posting(posted + indexOf(badWr.get(ADDRESS, 0)), what, rc);
                }
                posted += n;
            }
            if (refused != null) {
                throw new VerbsException(Errno.EINVAL, "work request " + posted + " of the chain: " + refused);
            }
        }
    }

    private int indexOf(MemorySegment bad) {
        for (int i = 0; i < wrs.length; i++) {
            if (wrs[i].address() == bad.address()) {
                return i;
            }
        }
        return 0;
    }
}
