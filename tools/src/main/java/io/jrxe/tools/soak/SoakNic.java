package io.jrxe.tools.soak;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.Srq;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.facade.Verbs;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.wire.port.fault.FaultyPort;
import io.jrxe.wire.sim.SimulatedNetwork;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.Map;

/**
 * One of the soak's two NICs: its device, CQs, QPs, one MR over all its memory, and the model's shadow of
 * that memory (what every byte must hold).
 */
final class SoakNic {
    /** Where each NIC's memory starts in its MR's address space. */
    private static final long IOVA = 0x5AA0_0000_0000L;
    /** Messages up to this long are sometimes posted INLINE. */
    static final int MAX_INLINE = 64;
    static final int MAX_SGE = 4;
    /** What memory holds where no operation put anything: bytes written where they should not be show. */
    static final byte POISON = (byte) 0xA5;

    final String label;
    final EmulatedDevice device;
    final Context ctx;
    final Pd pd;
    final Cq sendCq;
    final Cq recvCq;
    final Qp[] qps;
    /** Each QP pair's path MTU; a UD pair's is the port's active MTU, which limits a datagram. */
    final int[] mtus;
    final SlotArea[] areas;
    final MemorySegment memory;
    final Mr mr;
    final MemorySegment shadow;
    final Map<Integer, Integer> qpIndex = new HashMap<>();
    /** {@code --with srq}: the shared receive queue of all the NIC's RC QPs, kept filled; else null. */
    final SrqReceives srqReceives;

    /** A QP for each of {@link SoakConfig#pairs}, of its {@link SoakConfig#pairType}. */
    SoakNic(String label, String name, String address, SimulatedNetwork network, Arena arena, SoakConfig config,
            int index) throws VerbsException, UnknownHostException {
        int qpPairs = config.pairs();
        this.label = label;
        device = Verbs.emulated().createSimulated(DeviceConfig.of(name, InetAddress.getByName(address))
                .withInterfaceMtu(4200).withFaults(config.nicFaults(index)), network);
        ctx = device.open();
        pd = ctx.allocPd();
        sendCq = ctx.createCq(4096, null);
        recvCq = ctx.createCq(4096, null);
        qps = new Qp[qpPairs];
        mtus = new int[qpPairs];
        areas = new SlotArea[qpPairs];
        long size = 0;
        // Room for a full window of every RC lane into this NIC, and a spare per pair.
        int srqDepth = config.qps() * (SoakRun.WINDOW + 1);
        Srq srq = config.extras().contains(SoakExtra.SRQ) ? pd.createSrq(srqDepth, 1) : null;
        for (int i = 0; i < qps.length; i++) {
            QpType type = config.pairType(i);
            qps[i] = pd.createQp(new QpInitAttributes(type, sendCq, recvCq, type == QpType.RC ? srq : null,
                    new QpCapabilities(2 * SoakRun.WINDOW, 2 * SoakRun.WINDOW, MAX_SGE, MAX_SGE, MAX_INLINE), false));
            qpIndex.put(qps[i].qpNum(), i);
            mtus[i] = type == QpType.UD ? QpPairs.UD_MTU.bytes() : QpPairs.pathMtu(i).bytes();
            areas[i] = new SlotArea(size, mtus[i]);
            size = areas[i].end();
        }
        SlotArea srqArea = srq == null ? null : new SlotArea(size, Mtu.MTU_4096.bytes(), srqDepth);
        size = srq == null ? size : srqArea.end();
        memory = arena.allocate(Math.max(size, 4096), 4096);
        shadow = MemorySegment.ofArray(new byte[(int) memory.byteSize()]);
        // Start from a known pattern: every byte of memory is in the model from the start.
        fill(0, (int) memory.byteSize(), POISON);
        // A fixed iova, not the memory's address: the packets (RETH, AtomicETH) then carry the same addresses in
        // every run, which a replay of a seed needs; where malloc puts the memory differs from run to run.
        mr = pd.regMr(memory, IOVA, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC
                | Access.FLUSH_GLOBAL | Access.MW_BIND);
        srqReceives = srq == null ? null : new SrqReceives(this, srq, srqArea);
    }

    long address(long offset) {
        return IOVA + offset;
    }

    /** Writes the same bytes to memory and to the shadow (the application setting up a buffer). */
    void put(long offset, byte[] bytes) {
        MemorySegment.copy(bytes, 0, memory, ValueLayout.JAVA_BYTE, offset, bytes.length);
        MemorySegment.copy(bytes, 0, shadow, ValueLayout.JAVA_BYTE, offset, bytes.length);
    }

    void fill(long offset, int length, byte value) {
        memory.asSlice(offset, length).fill(value);
        shadow.asSlice(offset, length).fill(value);
    }

    /** One of the device's counters, 0 when it has none of that name. */
    long counter(String name) throws VerbsException {
        Long v = ctx.counters().get(name);
        return v == null ? 0 : v;
    }

    /** What this NIC's own faults did (--faults). */
    long faultsDone() throws VerbsException {
        return FaultyPort.faultsDone(ctx.counters());
    }

    @Override
    public String toString() {
        return label;
    }
}
