package io.jrxe.benchmarks;

import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.header.RethFlyweight;
import io.jrxe.wire.psn.Psn;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The header work of an RDMA WRITE FIRST in a direct buffer (where Netty puts datagrams):
 * decoding reads every BTH and RETH field, as a responder does before it checks anything;
 * encoding writes both headers whole, as a requester does for each packet it builds. The
 * values are those of the golden capture's first WRITE FIRST; the PSN advances each packet
 * so that nothing can be folded into a constant.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class HeaderCodecBenchmark {
    private static final int HEADERS = BthFlyweight.LENGTH + RethFlyweight.LENGTH;

    private final BthFlyweight bth = new BthFlyweight();
    private final RethFlyweight reth = new RethFlyweight();
    private ByteBuffer received;
    private ByteBuffer toSend;

    private int opcode = 0x06;
    private int pkey = BthFlyweight.DEFAULT_PKEY;
    private int destQpn = 0x13;
    private int psn = 899513;
    private long virtualAddress = 0x0000_5649_0d05_6000L;
    private int rkey = 0x4f8;
    private long dmaLength = 8192;

    @Setup(Level.Trial)
    public void buildBuffers() {
        received = ByteBuffer.allocateDirect(HEADERS);
        toSend = ByteBuffer.allocateDirect(HEADERS);
        new BthFlyweight().wrap(received, 0).set(opcode, false, 0, pkey, destQpn, false, psn);
        new RethFlyweight().wrap(received, BthFlyweight.LENGTH).set(virtualAddress, rkey, dmaLength);
    }

    @Benchmark
    public void decodeBthReth(Blackhole blackhole) {
        BthFlyweight b = bth.wrap(received, 0);
        RethFlyweight r = reth.wrap(received, BthFlyweight.LENGTH);
        long hash = b.opcode();
        hash = hash * 31 + (b.solicitedEvent() ? 1 : 0);
        hash = hash * 31 + (b.migReq() ? 1 : 0);
        hash = hash * 31 + b.padCount();
        hash = hash * 31 + b.transportVersion();
        hash = hash * 31 + b.pkey();
        hash = hash * 31 + (b.fecn() ? 1 : 0);
        hash = hash * 31 + (b.becn() ? 1 : 0);
        hash = hash * 31 + b.reserved6();
        hash = hash * 31 + b.destQpn();
        hash = hash * 31 + (b.ackRequest() ? 1 : 0);
        hash = hash * 31 + b.reserved7();
        hash = hash * 31 + b.psn();
        hash = hash * 31 + r.virtualAddress();
        hash = hash * 31 + r.rkey();
        hash = hash * 31 + r.dmaLength();
        blackhole.consume(hash);
    }

    @Benchmark
    public ByteBuffer encodeBthReth() {
        psn = Psn.next(psn);
        bth.wrap(toSend, 0).set(opcode, false, 0, pkey, destQpn, false, psn);
        reth.wrap(toSend, BthFlyweight.LENGTH).set(virtualAddress, rkey, dmaLength);
        return toSend;
    }
}
