package io.jrxe.rnic.memory;

import io.jrxe.rnic.RnicException;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The address space a device's implicit MRs reach: the native segments a program has mapped into it. A kernel's
 * implicit MR reaches every page the process's MMU maps; a Java program has no such address space the NIC could walk
 * and touch safely (memory is a {@code MemorySegment} whose Arena may close at any time, and touching memory
 * outside a live segment crashes the JVM), so the program declares the segments, as mmap makes memory visible to an
 * MMU. Mapping costs no MTT entries and pins nothing.
 *
 * <p>The segments are kept sorted by address in arrays replaced whole on every map and unmap (copy-on-write), so
 * the data path's lookup is a binary search over a {@code long[]} that allocates nothing. Mapped segments do not
 * overlap. NIC thread only.
 */
public final class MappedSegments {
    /** One generation of the mapping, never changed once made. */
    private record Layout(long[] starts, long[] ends, MemorySegment[] segments) {
    }

    private Layout layout = new Layout(new long[0], new long[0], new MemorySegment[0]);

    /** How many segments are mapped. */
    public int count() {
        return layout.segments.length;
    }

    /**
     * Whether [address, address+length) may be touched through an implicit MR: inside one mapped segment (else
     * {@link AccessError#NOT_MAPPED}) that is still alive (else {@link AccessError#MEMORY_FREED}). Allocation-free.
     */
    public AccessError check(long address, long length) {
        MemorySegment segment = covering(address, length);
        if (segment == null) {
            return AccessError.NOT_MAPPED;
        }
        return segment.scope().isAlive() ? AccessError.NONE : AccessError.MEMORY_FREED;
    }

    /** The mapped segment that holds all of [address, address+length), or null. Allocation-free. */
    public MemorySegment covering(long address, long length) {
        Layout l = layout;
        int i = Arrays.binarySearch(l.starts, address);
        if (i < 0) {
            i = -i - 2; // the last segment starting below the address
        }
        if (i < 0 || length < 0 || length > l.ends[i] - address) {
            return null;
        }
        return l.segments[i];
    }

    /**
     * Maps a segment the caller checked (native, not empty, alive). A mapped segment whose memory was freed (its
     * Arena closed) is as good as unmapped: one that overlaps the new segment is dropped and returned, so that the
     * caller invalidates its pages; a live one that overlaps refuses the mapping.
     *
     * @return the freed segments the new one replaced
     */
    List<MemorySegment> map(MemorySegment segment) throws RnicException {
        long start = segment.address();
        long end = start + segment.byteSize();
        Layout l = layout;
        List<MemorySegment> freed = new ArrayList<>();
        List<Integer> kept = new ArrayList<>();
        for (int i = 0; i < l.segments.length; i++) {
            boolean overlaps = l.starts[i] < end && start < l.ends[i];
            if (!overlaps) {
                kept.add(i);
            } else if (!l.segments[i].scope().isAlive()) {
                freed.add(l.segments[i]);
            } else if (l.starts[i] == start && l.ends[i] == end) {
                throw RnicException.invalid(String.format("map: 0x%x+%d is mapped already", start, segment.byteSize()));
            } else {
                throw RnicException.invalid(String.format("map: 0x%x+%d overlaps the mapped segment 0x%x+%d; "
                        + "unmap that one first", start, segment.byteSize(), l.starts[i], l.ends[i] - l.starts[i]));
            }
        }
        int n = kept.size() + 1;
        long[] starts = new long[n];
        long[] ends = new long[n];
        MemorySegment[] segments = new MemorySegment[n];
        int at = 0;
        boolean placed = false;
        for (int i : kept) {
            if (!placed && l.starts[i] > start) {
                starts[at] = start;
                ends[at] = end;
                segments[at++] = segment;
                placed = true;
            }
            starts[at] = l.starts[i];
            ends[at] = l.ends[i];
            segments[at++] = l.segments[i];
        }
        if (!placed) {
            starts[at] = start;
            ends[at] = end;
            segments[at] = segment;
        }
        layout = new Layout(starts, ends, segments);
        return freed;
    }

    /**
     * Unmaps the segment mapped at exactly {@code address} with exactly {@code byteSize} bytes (the one
     * {@link #map} was given, or a view of the same bytes); its memory is not touched, so a freed segment unmaps too.
     *
     * @return false when no such segment is mapped
     */
    boolean unmap(long address, long byteSize) {
        Layout l = layout;
        int i = Arrays.binarySearch(l.starts, address);
        if (i < 0 || l.ends[i] - l.starts[i] != byteSize) {
            return false;
        }
        int n = l.segments.length - 1;
        long[] starts = new long[n];
        long[] ends = new long[n];
        MemorySegment[] segments = new MemorySegment[n];
        System.arraycopy(l.starts, 0, starts, 0, i);
        System.arraycopy(l.starts, i + 1, starts, i, n - i);
        System.arraycopy(l.ends, 0, ends, 0, i);
        System.arraycopy(l.ends, i + 1, ends, i, n - i);
        System.arraycopy(l.segments, 0, segments, 0, i);
        System.arraycopy(l.segments, i + 1, segments, i, n - i);
        layout = new Layout(starts, ends, segments);
        return true;
    }
}
