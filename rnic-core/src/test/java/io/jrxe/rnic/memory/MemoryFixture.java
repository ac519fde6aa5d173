package io.jrxe.rnic.memory;

import io.jrxe.rnic.Nics;
import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicExecutor;
import io.jrxe.rnic.NicResources;
import io.jrxe.rnic.RnicException;
import io.jrxe.verbs.DeviceAttributes;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * A device with two PDs and a confined arena of native memory for the memory tests. Close it
 * after the test (the arena frees the memory).
 */
final class MemoryFixture implements AutoCloseable {
    static final long PAGE = MptEntry.PAGE_SIZE;

    final NicResources rnic;
    final MemoryTables tables;
    final ProtectionDomain pd;
    final ProtectionDomain otherPd;
    final Arena arena = Arena.ofConfined();

    MemoryFixture() {
        this(DeviceAttributes.rxeDefaults());
    }

    MemoryFixture(DeviceAttributes attributes) {
        this(attributes, DeviceConfig.DEFAULT_MTT_ENTRIES);
    }

    MemoryFixture(DeviceAttributes attributes, long mttEntries) {
        try {
            rnic = Nics.resources(DeviceConfig.of("jrxe0", InetAddress.getByName("127.0.0.1")).withAttributes(attributes)
                    .withMttEntries(mttEntries), NicExecutor.INLINE);
            tables = rnic.memory();
            pd = rnic.executor().call(rnic::allocatePd);
            otherPd = rnic.executor().call(rnic::allocatePd);
        } catch (UnknownHostException | RnicException e) {
            throw new AssertionError(e);
        }
    }

    /** {@code n} whole pages, page-aligned. */
    MemorySegment pages(long n) {
        return arena.allocate(n * PAGE, PAGE);
    }

    /** {@code size} bytes starting {@code offset} bytes into a page. */
    MemorySegment unaligned(long size, long offset) {
        return arena.allocate(size + offset, PAGE).asSlice(offset, size);
    }

    /** ibv_reg_mr: the iova is the buffer's address. */
    MptEntry register(MemorySegment segment, int access) throws RnicException {
        return tables.registerMr(pd, segment, segment.address(), access);
    }

    @Override
    public void close() {
        arena.close();
    }
}
