package io.jrxe.verbs.nativ;

import io.jrxe.verbs.AddressSpace;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.VerbsException;

import java.lang.foreign.MemorySegment;

/**
 * A kernel device's address space is the process's own: its implicit MRs reach every page the MMU maps, so a native
 * segment is in it from its allocation, and the kernel's MMU notifier follows its unmapping. Mapping and unmapping
 * check the segment and change nothing.
 */
final class NativeAddressSpace implements AddressSpace {
    static final NativeAddressSpace PROCESS = new NativeAddressSpace();

    private NativeAddressSpace() {
    }

    @Override
    public void map(MemorySegment memory) throws VerbsException {
        check(memory);
    }

    @Override
    public void unmap(MemorySegment memory) throws VerbsException {
        if (!memory.isNative()) {
            throw new VerbsException(Errno.EINVAL, "a heap segment is in no device's address space");
        }
    }

    private static void check(MemorySegment memory) throws VerbsException {
        if (!memory.isNative() || memory.byteSize() == 0 || !memory.scope().isAlive()) {
            throw new VerbsException(Errno.EINVAL, "only live native memory of some bytes is in the process's address "
                    + "space (not a heap segment, an empty or a freed one)");
        }
    }
}
