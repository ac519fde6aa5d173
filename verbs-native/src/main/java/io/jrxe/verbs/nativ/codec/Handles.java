package io.jrxe.verbs.nativ.codec;

import java.lang.foreign.MemorySegment;

/**
 * What a jrxe work request names by number and libibverbs by pointer: the AH of a UD send, the
 * window and the MR of a bind. {@link MemorySegment#NULL} when there is none.
 */
public interface Handles {
    MemorySegment ah(int handle);

    MemorySegment mw(int rkey);

    MemorySegment mr(int lkey);

    /** For work requests that name nothing (tests, RC-only programs). */
    Handles NONE = new Handles() {
        @Override
        public MemorySegment ah(int handle) {
            return MemorySegment.NULL;
        }

        @Override
        public MemorySegment mw(int rkey) {
            return MemorySegment.NULL;
        }

        @Override
        public MemorySegment mr(int lkey) {
            return MemorySegment.NULL;
        }
    };
}
