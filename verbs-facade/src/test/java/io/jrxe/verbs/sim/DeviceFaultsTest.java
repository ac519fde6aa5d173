package io.jrxe.verbs.sim;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpPeer;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.wire.port.fault.FaultSpec;
import io.jrxe.wire.sim.LinkFaults;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A device does its configuration's faults on either wire: a rule that drops the third packet of every message drops
 * it once from each 4-packet WRITE, whose receiver then NAKs the fourth and gets the rest again, on a network that
 * loses nothing. On the simulated network the run replays exactly
 * (the same packets, the same virtual time).
 */
class DeviceFaultsTest {
    /** Five 4-packet WRITEs from A, whose port drops the third packet of each message; A's packets and the time it took. */
    private static String run(String faults) throws Exception {
        try (Arena arena = Arena.ofShared(); FixtureWire wire = new FixtureWire(3)) { // the memory outlives its devices
            wire.network.faults(LinkFaults.NONE);
            String n = "device-faults-" + System.nanoTime();
            EmulatedDevice a = wire.device(DeviceConfig.of(n + "a", InetAddress.getByName("10.9.0.1"))
                    .withFaults(FaultSpec.parse(faults)));
            EmulatedDevice b = wire.device(DeviceConfig.of(n + "b", InetAddress.getByName("10.9.0.2")));
            return writes(wire, a, b, arena);
        }
    }

    private static String writes(FixtureWire wire, EmulatedDevice a, EmulatedDevice b, Arena arena) throws Exception {
        Context ca = a.open();
        Context cb = b.open();
        Pd pa = ca.allocPd();
        Pd pb = cb.allocPd();
        Cq cq = ca.createCq(16, null);
        Cq cqB = cb.createCq(16, null);
        QpCapabilities caps = new QpCapabilities(8, 8, 1, 1, 0);
        Qp qa = pa.createQp(new QpInitAttributes(QpType.RC, cq, cq, null, caps, false));
        Qp qb = pb.createQp(new QpInitAttributes(QpType.RC, cqB, cqB, null, caps, false));
        FixtureWire.connectTo(new QpPeer(qb.qpNum(), 0, cb.queryGid(1, 1).gid())).apply(qa);
        FixtureWire.connectTo(new QpPeer(qa.qpNum(), 0, ca.queryGid(1, 1).gid())).accessFlags(Access.REMOTE_WRITE).apply(qb);
        MemorySegment from = arena.allocate(5 * 4096, 4096);
        MemorySegment to = arena.allocate(5 * 4096, 4096);
        for (int i = 0; i < from.byteSize(); i++) {
            from.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, (byte) (i * 7 + 1));
        }
        Mr mrA = pa.regMr(from, Access.LOCAL_WRITE);
        Mr mrB = pb.regMr(to, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        for (int i = 0; i < 5; i++) {
            SendWr wr = new SendWr(1);
            wr.opcode = WrOpcode.RDMA_WRITE;
            wr.flags = SendWr.SIGNALED;
            wr.wrId = i;
            wr.sgl.add(from.address() + i * 4096L, 4096, mrA.lkey());
            wr.remoteAddr = to.address() + i * 4096L;
            wr.rkey = mrB.rkey();
            qa.postSend(wr);
        }
        WorkCompletion[] wc = {new WorkCompletion()};
        int[] done = {0};
        Runnable step = () -> {
            wire.invoke(a);
            wire.invoke(b);
        };
        assertThat(wire.runUntil(step, () -> {
            while (cq.poll(wc) == 1) {
                assertThat(wc[0].status()).isEqualTo(WcStatus.SUCCESS);
                done[0]++;
            }
            return done[0] == 5;
        }, 10_000_000_000L)).as("five WRITEs complete").isTrue();
        assertThat(to.mismatch(from)).isEqualTo(-1);
        assertThat(ca.counters().get("jrxe_fault_tx_dropped")).isEqualTo(5);
        assertThat(cb.counters().get("out_of_seq_request")).isPositive();
        assertThat(ca.counters().get("sent_pkts")).as("20 packets, and each dropped one resent").isGreaterThanOrEqualTo(25);
        return "sent_pkts=" + ca.counters().get("sent_pkts") + " at " + wire.nanoTime() + " ns";
    }

    @Test
    void theThirdPacketOfEachMessageIsDroppedOnceAndSentAgain() throws Exception {
        run("drop,nth=3");
    }

    @Test
    @Tag(FixtureWire.VIRTUAL_TIME)
    void aRunWithFaultsReplaysExactly() throws Exception {
        String first = run("drop,nth=3");
        assertThat(run("drop,nth=3")).isEqualTo(first);
    }
}
