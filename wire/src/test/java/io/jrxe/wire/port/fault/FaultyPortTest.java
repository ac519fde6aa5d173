package io.jrxe.wire.port.fault;

import io.jrxe.wire.port.PacketInfo;
import io.jrxe.wire.port.DropReason;
import io.jrxe.wire.ecn.Ecn;
import io.jrxe.wire.port.PacketPort;
import io.jrxe.wire.port.PacketSink;
import io.jrxe.wire.port.PacketTap;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.stats.CounterRegistry;
import io.jrxe.wire.sim.VirtualTime;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fault port over a stand-in port and virtual time, whose timers run when the test says: the same seed does the same
 * faults to the same packets, held packets are bounded and go in their time, a stopped port touches nothing, and a
 * packet no fault picks costs no allocation.
 */
class FaultyPortTest {
    private static final PeerAddress LOCAL = PeerAddress.of("10.0.0.1");
    private static final PeerAddress PEER = PeerAddress.of("10.0.0.2");
    private static final int RC_RDMA_WRITE_ONLY = 0x0A;

    /** Keeps what leaves: each packet's PSN and length, whether it is to be corrupted, and its comment. */
    static class StandIn implements PacketPort {
        final List<String> sent = new ArrayList<>();
        /** Each packet lost on its way out: its PSN and its comment. */
        final List<String> lost = new ArrayList<>();
        private int corruptBit = -1;
        private String comment;
        /** What the faulty port stands the NIC's sink behind: where a received packet is handed. */
        PacketSink received;

        @Override
        public PeerAddress localAddress() {
            return LOCAL;
        }

        @Override
        public void send(ByteBuffer packet, int offset, int length, PeerAddress to, int srcPort) {
            sent.add((packet.getInt(offset + 8) & 0xFFFFFF) + "/" + length + (corruptBit >= 0 ? " bit " + corruptBit : ""));
            corruptBit = -1;
            comment = null;
        }

        @Override
        public void loseOnSend(ByteBuffer packet, int offset, int length, PeerAddress to, int srcPort) {
            lost.add((packet.getInt(offset + 8) & 0xFFFFFF) + (comment == null ? "" : " " + comment));
            comment = null;
        }

        @Override
        public boolean corruptNextSent(int bit) {
            corruptBit = bit;
            return true;
        }

        @Override
        public void annotateNextSent(String c) {
            comment = c;
        }

        @Override
        public void receiver(PacketSink sink) {
            received = sink;
        }

        @Override
        public void tap(PacketTap tap) {
        }

        @Override
        public PacketTap tap() {
            return null;
        }

        @Override
        public void close() {
        }
    }

    private static void runAll(VirtualTime time) {
        while (time.step()) {
            // each held packet's timer, in deadline order
        }
    }

    private static ByteBuffer packet(int psn) {
        ByteBuffer b = ByteBuffer.allocate(64);
        b.put(0, (byte) RC_RDMA_WRITE_ONLY);
        b.putInt(4, 0x11);
        b.putInt(8, psn);
        return b;
    }

    private static List<String> run(String spec, int packets) {
        StandIn inner = new StandIn();
        VirtualTime time = new VirtualTime();
        PacketPort port = FaultyPort.wrap(inner, FaultSpec.parse(spec), time);
        for (int psn = 0; psn < packets; psn++) {
            port.send(packet(psn), 0, 64, PEER, 49152);
        }
        runAll(time);
        return inner.sent;
    }

    @Test
    void theSameSeedDoesTheSameFaultsToTheSamePackets() {
        String rates = "loss=0.2,dup=0.1,reorder=0.1:50us,corrupt=0.1";
        List<String> first = run(rates + ",seed=9", 2000);
        assertThat(run(rates + ",seed=9", 2000)).isEqualTo(first);
        assertThat(run(rates + ",seed=10", 2000)).isNotEqualTo(first);
        assertThat(first).as("some lost, some twice, some corrupted, some out of order")
                .hasSizeBetween(1500, 2100).anyMatch(s -> s.contains(" bit "));
        assertThat(first).isNotEqualTo(first.stream().sorted((a, b) -> Integer.compare(psn(a), psn(b))).toList());
        assertThat(first.stream().filter(s -> s.contains(" bit ")).map(s -> Integer.parseInt(s.substring(s.indexOf(" bit ") + 5))))
                .as("never a bit the ICRC leaves out (the BTH's fifth byte) nor one of the ICRC's own")
                .allSatisfy(bit -> assertThat(bit < 32 || bit >= 40).as("bit " + bit).isTrue())
                .allSatisfy(bit -> assertThat(bit).isLessThan((64 - 4) * 8));
    }

    private static int psn(String sent) {
        return Integer.parseInt(sent.substring(0, sent.indexOf('/')));
    }

    @Test
    void heldPacketsAreBoundedAndGoInTheirTime() {
        StandIn inner = new StandIn();
        VirtualTime time = new VirtualTime();
        FaultyPort port = (FaultyPort) FaultyPort.wrap(inner, FaultSpec.parse("delay=1ms"), time);
        CounterRegistry counters = new CounterRegistry();
        port.registerCounters(counters);
        int packets = FaultyPort.MAX_HELD + 100;
        for (int psn = 0; psn < packets; psn++) {
            port.send(packet(psn), 0, 64, PEER, 49152);
        }
        assertThat(inner.sent).as("past the bound a packet goes at once").hasSize(100);
        assertThat(port.holding()).isEqualTo(FaultyPort.MAX_HELD);
        assertThat(counters.get("jrxe_fault_held_overflow")).isEqualTo(100);
        assertThat(counters.get("jrxe_fault_tx_delayed")).isEqualTo(packets);
        runAll(time);
        assertThat(inner.sent).hasSize(packets);
        assertThat(port.holding()).isZero();
        assertThat(inner.sent.subList(100, packets)).extracting(FaultyPortTest::psn)
                .isSortedAccordingTo(Integer::compare);
        port.send(packet(packets), 0, 64, PEER, 49152);
        assertThat(time.idle()).as("a released slot holds the next packet").isFalse();
        assertThat(port.holding()).isEqualTo(1);
        assertThat(inner.sent).hasSize(packets);
    }

    @Test
    void markSetsCeOnWhatArrivesEcnCapableAndOnNothingElse() {
        StandIn inner = new StandIn();
        PacketPort port = FaultyPort.wrap(inner, FaultSpec.parse("mark,nth=1"), new VirtualTime());
        List<String> arrived = new ArrayList<>();
        port.receiver(new PacketSink() {
            @Override
            public void packet(ByteBuffer buffer, int offset, int length, PacketInfo info) {
                arrived.add((buffer.getInt(offset + 8) & 0xFFFFFF) + " " + Ecn.name(Ecn.of(info.trafficClass))
                        + " dscp " + Ecn.dscp(info.trafficClass));
            }

            @Override
            public void dropped(ByteBuffer buffer, int offset, int length, PacketInfo info, DropReason reason) {
                arrived.add("dropped " + reason);
            }
        });
        int[] tos = {(26 << 2) | Ecn.ECT_0, Ecn.ECT_1, Ecn.NOT_ECT, Ecn.CE};
        for (int psn = 0; psn < tos.length; psn++) {
            PacketInfo info = new PacketInfo();
            info.trafficClass = tos[psn];
            inner.received.packet(packet(psn), 0, 64, info);
        }
        assertThat(arrived).containsExactly("0 CE dscp 26", "1 CE dscp 0", "2 Not-ECT dscp 0", "3 CE dscp 0");
        assertThat(inner.sent).as("mark is for packets received: what is sent goes as it is").isEmpty();
        port.send(packet(9), 0, 64, PEER, 49152);
        assertThat(inner.sent).containsExactly("9/64");
    }

    @Test
    void aStoppedPortTouchesNothingAndDrawsNothing() {
        StandIn inner = new StandIn();
        VirtualTime time = new VirtualTime();
        FaultyPort port = (FaultyPort) FaultyPort.wrap(inner, FaultSpec.parse("loss=0.5,seed=3"), time);
        port.suspend(true);
        for (int psn = 0; psn < 100; psn++) {
            port.send(packet(psn), 0, 64, PEER, 49152);
        }
        assertThat(inner.sent).hasSize(100);
        port.suspend(false);
        for (int psn = 100; psn < 1100; psn++) {
            port.send(packet(psn), 0, 64, PEER, 49152);
        }
        List<String> afterStop = inner.sent.subList(100, inner.sent.size()).stream()
                .map(s -> (psn(s) - 100) + s.substring(s.indexOf('/'))).toList();
        assertThat(afterStop).as("the same faults as a port that was never stopped").isEqualTo(run("loss=0.5,seed=3", 1000));
    }

    @Test
    void aPacketDroppedOnSendIsLostByThePortBeneathWithItsComment() {
        StandIn inner = new StandIn();
        PacketPort port = FaultyPort.wrap(inner, FaultSpec.parse("drop,nth=1,op=write,count=1"), new VirtualTime());
        port.tap((d, s, t, sp, dp, id, roce, off, len, ts, c) -> { });
        for (int psn = 0; psn < 3; psn++) {
            if (psn == 0) {
                port.annotateNextSent("retransmission");
            }
            port.send(packet(psn), 0, 64, PEER, 49152);
        }
        assertThat(inner.sent).containsExactly("1/64", "2/64");
        assertThat(inner.lost).singleElement().asString().startsWith("0 retransmission; fault on send: dropped");
    }

    @Test
    void aPacketDroppedOnSendAllocatesNothing() {
        StandIn inner = new StandIn() {
            @Override
            public void loseOnSend(ByteBuffer packet, int offset, int length, PeerAddress to, int srcPort) {
            }
        };
        PacketPort port = FaultyPort.wrap(inner, FaultSpec.parse("drop,op=write"), new VirtualTime());
        ByteBuffer write = packet(0);
        assertThat(allocatedPerPacket(port, write)).as("bytes allocated per packet dropped").isZero();
        assertThat(inner.sent).isEmpty();
    }

    /** Bytes the port allocates per packet sent, after as many packets to warm it up. */
    private static long allocatedPerPacket(PacketPort port, ByteBuffer write) {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        for (int i = 0; i < 200_000; i++) {
            write.putInt(8, i & 0xFFFFFF);
            port.send(write, 0, 64, PEER, 49152);
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 200_000; i++) {
            write.putInt(8, i & 0xFFFFFF);
            port.send(write, 0, 64, PEER, 49152);
        }
        return (threads.getCurrentThreadAllocatedBytes() - before) / 200_000;
    }

    @Test
    void aPacketNoFaultPicksAllocatesNothing() {
        StandIn inner = new StandIn() {
            @Override
            public void send(ByteBuffer packet, int offset, int length, PeerAddress to, int srcPort) {
            }
        };
        PacketPort port = FaultyPort.wrap(inner, FaultSpec.parse("drop,op=ack;delay:1ms,qp=0x12;drop,nth=2,op=read-resp"),
                new VirtualTime());
        ByteBuffer write = packet(0);
        assertThat(allocatedPerPacket(port, write)).as("bytes allocated per packet that no rule picks").isZero();
    }
}
