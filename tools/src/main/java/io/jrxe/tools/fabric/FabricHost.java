package io.jrxe.tools.fabric;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicContext;
import io.jrxe.rnic.cc.CongestionControl;
import io.jrxe.rnic.cc.CongestionControlChoice;
import io.jrxe.rnic.cc.DcqcnParameters;
import io.jrxe.rnic.cc.TimelyParameters;
import io.jrxe.rnic.transport.SimulatedTransport;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.verbs.facade.Verbs;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.sim.SimulatedNetwork;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicLong;

/** One host of the fabric: a jrxe NIC on the simulated network with a PD, a CQ and one registered buffer. */
final class FabricHost implements AutoCloseable {
    private static final AtomicLong INSTANCES = new AtomicLong();
    /** The interface MTU above the path MTU: room for the IP, UDP and transport headers. */
    private static final int HEADER_ROOM = 104;

    /**
     * Where every host's buffer is registered: the WRITEs' RETHs then carry the same addresses in every run, which
     * a replay of a seed needs (the memory's own address differs from run to run).
     */
    static final long IOVA = 0x10_0000_0000L;

    final PeerAddress address;
    final EmulatedDevice device;
    final Context ctx;
    final Pd pd;
    final Cq cq;
    final MemorySegment memory;
    final Mr mr;

    FabricHost(PeerAddress address, SimulatedNetwork network, FabricScenario s, int cqEntries, Arena arena)
            throws VerbsException {
        this.address = address;
        // The device list is the JVM's: names must not meet another run's (a test's) devices.
        DeviceConfig config = DeviceConfig.of("fabric" + INSTANCES.incrementAndGet() + "-" + address, address.address())
                .withInterfaceMtu(s.mtu() + HEADER_ROOM).withEcnCapable(s.ecn());
        device = Verbs.emulated().create(new NicContext(config).transport(SimulatedTransport.attach(network, config))
                .congestionControl(congestionControl(s)));
        try {
            ctx = device.open();
            pd = ctx.allocPd();
            cq = ctx.createCq(cqEntries, null);
            memory = arena.allocate(s.messageBytes(), 4096);
            mr = pd.regMr(memory, IOVA, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        } catch (VerbsException | RuntimeException e) {
            Verbs.emulated().remove(device);
            throw e;
        }
    }

    /**
     * A rate-based part's line rate is the host link's (the rate a QP recovers or climbs to is what its link can
     * carry), and its minimum rate at most a hundredth of it, unless the scenario's settings say otherwise.
     */
    static CongestionControl.Factory congestionControl(FabricScenario s) {
        long line = s.linkBits();
        return CongestionControlChoice.parse(s.cc(),
                DcqcnParameters.DEFAULTS.withLineRate(line)
                        .withMinRate(minRate(DcqcnParameters.DEFAULTS.minRateBitsPerSecond(), line)),
                TimelyParameters.DEFAULTS.withRates(line, minRate(TimelyParameters.DEFAULTS.minRateBitsPerSecond(), line)));
    }

    private static long minRate(long defaultMin, long line) {
        return Math.max(1, Math.min(defaultMin, line / 100));
    }

    /** One of the NIC's counters, 0 when it has none of that name. */
    long counter(String name) throws VerbsException {
        Long v = ctx.counters().get(name);
        return v == null ? 0 : v;
    }

    @Override
    public void close() {
        Verbs.emulated().remove(device);
    }
}
