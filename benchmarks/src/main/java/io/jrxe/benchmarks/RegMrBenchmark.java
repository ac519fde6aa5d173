package io.jrxe.benchmarks;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.RnicException;
import io.jrxe.verbs.DeviceAttributes;
import io.jrxe.verbs.Access;
import io.jrxe.rnic.memory.MemoryTables;
import io.jrxe.rnic.memory.MptEntry;
import io.jrxe.rnic.memory.ProtectionDomain;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

/**
 * The cost of ibv_reg_mr + ibv_dereg_mr on the emulated NIC for 4 KiB, 1 MiB and 1 GiB: an MPT
 * entry, one MTT entry per 4 KiB page (1, 256 and 262,144 entries), and a touch of every page
 * (as pinning does), so the cost grows with the size as a real registration's does.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RegMrBenchmark {
    @Param({"4096", "1048576", "1073741824"})
    public long bytes;

    private Arena arena;
    private MemorySegment memory;
    private MemoryTables tables;
    private ProtectionDomain pd;

    @Setup(Level.Trial)
    public void allocate() {
        arena = Arena.ofShared();
        memory = arena.allocate(bytes, 4096);
        memory.fill((byte) 1);
        tables = new MemoryTables(DeviceAttributes.rxeDefaults(), DeviceConfig.DEFAULT_MTT_ENTRIES);
        pd = new ProtectionDomain(1);
    }

    @TearDown(Level.Trial)
    public void free() {
        arena.close();
    }

    @Benchmark
    public int registerAndDeregister() throws RnicException {
        MptEntry mr = tables.registerMr(pd, memory, memory.address(), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        int key = mr.key();
        tables.deregisterMr(key);
        return key;
    }
}
