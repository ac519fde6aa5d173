package io.jrxe.benchmarks;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.RnicException;
import io.jrxe.verbs.DeviceAttributes;
import io.jrxe.verbs.Access;
import io.jrxe.rnic.memory.AccessError;
import io.jrxe.rnic.memory.MemoryTables;
import io.jrxe.rnic.memory.MptEntry;
import io.jrxe.rnic.memory.ProtectionDomain;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

/**
 * One translation as the data path does it for every packet: the R_Key's access check
 * (MPT lookup, variant, PD, rights, bounds), then iova -> MTT entry -> host address.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class TranslationBenchmark {
    private Arena arena;
    private MemoryTables tables;
    private ProtectionDomain pd;
    private int rkey;
    private long base;
    private long offset;

    @Setup
    public void register() throws RnicException {
        arena = Arena.ofShared();
        MemorySegment memory = arena.allocate(64L << 20, 4096);
        tables = new MemoryTables(DeviceAttributes.rxeDefaults(), DeviceConfig.DEFAULT_MTT_ENTRIES);
        pd = new ProtectionDomain(1);
        MptEntry mr = tables.registerMr(pd, memory, memory.address(), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        rkey = mr.rkey();
        base = mr.iova();
    }

    @TearDown
    public void free() {
        arena.close();
    }

    @Benchmark
    public long checkAndTranslate() {
        offset = (offset + 4096 * 37 + 64) & ((64L << 20) - 4096);
        long iova = base + offset;
        MptEntry entry = tables.lookup(rkey);
        AccessError e = tables.check(entry, rkey, pd, iova, 1024, Access.REMOTE_WRITE, true);
        return e == AccessError.NONE ? tables.address(entry, iova) : -1;
    }
}
