package io.jrxe.verbs.emulated;

import io.jrxe.rnic.NicResources;
import io.jrxe.verbs.AddressSpace;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.VerbsException;

import java.lang.foreign.MemorySegment;

/**
 * A jrxe device's address space, as its contexts hand it out: each map and unmap is a command on the NIC thread,
 * which owns the mapped segments ({@link io.jrxe.rnic.memory.MappedSegments}) with the rest of the memory tables.
 */
final class EmulatedAddressSpace implements AddressSpace {
    private final EmulatedDevice device;
    private final NicResources rnic;

    EmulatedAddressSpace(EmulatedDevice device) {
        this.device = device;
        this.rnic = device.rnic();
    }

    @Override
    public void map(MemorySegment memory) throws VerbsException {
        requireSegment(memory, "map");
        Commands.run(rnic, () -> rnic.memory().mapSegment(memory));
    }

    @Override
    public void unmap(MemorySegment memory) throws VerbsException {
        requireSegment(memory, "unmap");
        Commands.run(rnic, () -> rnic.memory().unmapSegment(memory));
    }

    private static void requireSegment(MemorySegment memory, String verb) throws VerbsException {
        if (memory == null) {
            throw new VerbsException(Errno.EINVAL, verb + ": no segment (null)");
        }
    }

    @Override
    public String toString() {
        return "address space of " + device.name();
    }
}
