package io.jrxe.verbs;

import java.lang.foreign.MemorySegment;

/**
 * The memory an implicit on-demand MR ({@link Pd#regMrImplicit}) reaches: the native segments the program has
 * mapped into its device's address space. A kernel's implicit MR reaches every page the process's MMU maps. A Java
 * program has no process-wide address space a NIC could walk safely: its memory is segments whose Arenas may be
 * closed at any time, and touching memory outside a live segment crashes the JVM. So the program declares the
 * segments, as mmap makes memory visible to the MMU, and the device reaches those and nothing else.
 *
 * <p>Mapping costs no MTT entries and pins nothing. Unmapping is what munmap's MMU notifier does: the implicit MRs'
 * pages in the range are invalidated, and fault again if the memory is mapped again. A mapped segment whose Arena
 * is closed is refused at access time as a freed MR is (a local work request completes with LOC_PROT_ERR, a peer's
 * request is NAKed with a remote access error), and a new segment may be mapped over its addresses.
 */
public interface AddressSpace {
    /**
     * Makes a segment reachable through the device's implicit MRs.
     *
     * @throws VerbsException EINVAL for a heap segment, an empty or freed one, one that overlaps a live mapped
     *                        segment (or is mapped already), or on a device whose NIC runs on its own thread, memory
     *                        confined to one thread (Arena.ofConfined)
     */
    void map(MemorySegment memory) throws VerbsException;

    /**
     * Takes a mapped segment out of the address space: the device's implicit MRs no longer reach it, and their pages
     * in it are invalidated. The segment is named as it was mapped (the same address and size); its memory is not
     * touched, so a freed segment unmaps too.
     *
     * @throws VerbsException EINVAL when no segment is mapped with that address and size
     */
    void unmap(MemorySegment memory) throws VerbsException;
}
