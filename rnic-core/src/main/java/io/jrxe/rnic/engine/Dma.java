package io.jrxe.rnic.engine;

import io.jrxe.verbs.Access;
import io.jrxe.rnic.memory.AccessError;
import io.jrxe.rnic.memory.MemoryTables;
import io.jrxe.rnic.memory.MptEntry;
import io.jrxe.rnic.memory.OnDemandPaging;
import io.jrxe.rnic.memory.ProtectionDomain;
import io.jrxe.verbs.ScatterGatherList;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;

/**
 * The NIC's DMA engine: moves bytes between packet buffers and registered memory, one page at a
 * time through the MTT, after the key checks. Local memory is named by scatter/gather lists
 * (L_Keys), remote memory by an already checked MPT entry (R_Key). NIC thread only.
 */
final class Dma {
    private final MemoryTables memory;
    /** Where the trace listener is found: read once per page, so a trace installed later is seen. */
    private final Tracer tracer;
    private ByteBuffer cachedBuffer;
    private MemorySegment cachedSegment;

    Dma(MemoryTables memory, Tracer tracer) {
        this.memory = memory;
        this.tracer = tracer;
    }

    /**
     * Copies {@code length} bytes of the message described by {@code sgl}, starting at byte
     * {@code from} of the message, into the packet buffer.
     */
    AccessError gather(ProtectionDomain pd, ScatterGatherList sgl, long from, ByteBuffer dst, int dstPos, int length) {
        return walk(pd, sgl, from, dst, dstPos, length, false);
    }

    /** Copies packet bytes into the message described by {@code sgl} at byte {@code to} (needs LOCAL_WRITE). */
    AccessError scatter(ProtectionDomain pd, ScatterGatherList sgl, long to, ByteBuffer src, int srcPos, int length) {
        return walk(pd, sgl, to, src, srcPos, length, true);
    }

    private AccessError walk(ProtectionDomain pd, ScatterGatherList sgl, long start, ByteBuffer buf, int pos, int length,
                             boolean toMemory) {
        long skip = start;
        int done = 0;
        for (int i = 0; i < sgl.count() && done < length; i++) {
            long sgeLength = sgl.length(i);
            if (skip >= sgeLength) {
                skip -= sgeLength;
                continue;
            }
            int n = (int) Math.min(sgeLength - skip, length - done);
            long addr = sgl.addr(i) + skip;
            MptEntry entry = memory.lookup(sgl.lkey(i));
            AccessError e = memory.check(entry, sgl.lkey(i), pd, addr, n, toMemory ? Access.LOCAL_WRITE : 0, false);
            if (e != AccessError.NONE) {
                return e;
            }
            copy(entry, addr, buf, pos + done, n, toMemory);
            done += n;
            skip = 0;
        }
        return done == length ? AccessError.NONE : AccessError.OUT_OF_RANGE;
    }

    /**
     * Whether a range of an entry checked for an earlier packet of its message may still be touched for this one
     * ({@link MemoryTables#recheck}): what a READ's response asks before each packet it reads.
     */
    AccessError recheck(MptEntry entry, int key, long iova, long length) {
        return memory.recheck(entry, key, iova, length);
    }

    /** Copies between a checked MPT entry's memory at iova and a packet buffer, page by page through the MTT. */
    void copy(MptEntry entry, long iova, ByteBuffer buf, int pos, int length, boolean toMemory) {
        MemorySegment memorySegment = memory.segmentOf(entry, iova, length);
        long base = memorySegment.address();
        int done = 0;
        while (done < length) {
            long va = iova + done;
            TraceListener t = tracer.listener();
            long address = t == null ? memory.address(entry, va) : tracedAddress(t, entry, va);
            int inPage = (int) Math.min(length - done, MptEntry.PAGE_SIZE - (address & (MptEntry.PAGE_SIZE - 1)));
            long offset = address - base;
            if (t != null) {
                traced(t, entry, va, address, inPage, toMemory);
            }
            java.nio.ByteBuffer view = entry.bufferView();
            if (view != null) {
                if (toMemory) {
                    view.put((int) offset, buf, pos + done, inPage);
                } else {
                    buf.put(pos + done, view, (int) offset, inPage);
                }
            } else if (buf.hasArray()) {
                int at = buf.arrayOffset() + pos + done;
                if (toMemory) {
                    MemorySegment.copy(buf.array(), at, memorySegment, ValueLayout.JAVA_BYTE, offset, inPage);
                } else {
                    MemorySegment.copy(memorySegment, ValueLayout.JAVA_BYTE, offset, buf.array(), at, inPage);
                }
            } else {
                MemorySegment packet = segmentOf(buf);
                if (toMemory) {
                    MemorySegment.copy(packet, pos + done, memorySegment, offset, inPage);
                } else {
                    MemorySegment.copy(memorySegment, offset, packet, pos + done, inPage);
                }
            }
            done += inPage;
        }
    }

    /** 8 bytes of host memory at a checked iova, in the host's byte order, as an atomic sees them. */
    long readLong(MptEntry entry, long iova) {
        TraceListener t = tracer.listener();
        long address = t == null ? memory.address(entry, iova) : tracedAddress(t, entry, iova);
        if (t != null) {
            traced(t, entry, iova, address, Long.BYTES, false);
        }
        MemorySegment memorySegment = memory.segmentOf(entry, iova, Long.BYTES);
        return memorySegment.get(ValueLayout.JAVA_LONG_UNALIGNED, address - memorySegment.address());
    }

    void writeLong(MptEntry entry, long iova, long value) {
        TraceListener t = tracer.listener();
        long address = t == null ? memory.address(entry, iova) : tracedAddress(t, entry, iova);
        if (t != null) {
            traced(t, entry, iova, address, Long.BYTES, true);
        }
        MemorySegment memorySegment = memory.segmentOf(entry, iova, Long.BYTES);
        memorySegment.set(ValueLayout.JAVA_LONG_UNALIGNED, address - memorySegment.address(), value);
    }

    /**
     * The host address of a page, for a trace: a page the MTT does not hold yet (an ON_DEMAND MR's) is told to the
     * listener as a fault before the memory tables bring it in.
     */
    private long tracedAddress(TraceListener t, MptEntry entry, long iova) {
        long mttIndex = entry.mttIndex(iova);
        long before = memory.pageEntry(entry, mttIndex);
        if (before < MptEntry.PAGE_SIZE) {
            t.pageFault(entry.key(), entry.index(), iova, mttIndex, before != OnDemandPaging.NOT_PRESENT);
        }
        return memory.address(entry, iova);
    }

    /** One page's translation, to the trace listener. */
    private void traced(TraceListener t, MptEntry entry, long iova, long address, int length, boolean toMemory) {
        long mttIndex = entry.mttIndex(iova);
        long page = memory.pageEntry(entry, mttIndex);
        t.translation(entry.key(), entry.index(), iova, mttIndex, page, (int) (address - page), length, toMemory);
    }

    /** Packet buffers are few and reused (the NIC's own, the transport's pooled ones): keep the last view. */
    private MemorySegment segmentOf(ByteBuffer buf) {
        if (buf != cachedBuffer) {
            cachedBuffer = buf;
            cachedSegment = MemorySegment.ofBuffer(buf.duplicate().clear());
        }
        return cachedSegment;
    }
}
