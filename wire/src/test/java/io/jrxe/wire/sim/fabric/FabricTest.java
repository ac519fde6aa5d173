package io.jrxe.wire.sim.fabric;

import io.jrxe.wire.ecn.Ecn;
import io.jrxe.wire.port.DropReason;
import io.jrxe.wire.port.PacketInfo;
import io.jrxe.wire.port.PacketSink;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.sim.SimulatedNetwork;
import io.jrxe.wire.sim.SimulatedPort;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Packets through an incast of the fabric's queues: their timing, marks, drops and PFC pauses. */
class FabricTest {
    private static final long GBIT = 1_000_000_000L;
    /** RoCE bytes of each packet sent; on the wire 1000 + 8 + 20 + 38. */
    private static final int ROCE = 1000;
    private static final int WIRE = 1066;
    private static final Link LINK = new Link(GBIT, 1_000);

    /** What a receiving port saw: each packet's arrival time and ECN codepoint. */
    private static final class Seen implements PacketSink {
        final List<Long> times = new ArrayList<>();
        final List<Integer> ecn = new ArrayList<>();
        private final SimulatedNetwork network;

        Seen(SimulatedNetwork network) {
            this.network = network;
        }

        @Override
        public void packet(ByteBuffer buffer, int offset, int length, PacketInfo info) {
            times.add(network.time().nanoTime());
            ecn.add(Ecn.of(info.trafficClass));
        }

        @Override
        public void dropped(ByteBuffer buffer, int offset, int length, PacketInfo info, DropReason reason) {
            throw new AssertionError("the port dropped a packet: " + reason);
        }
    }

    private static void burst(SimulatedPort from, PeerAddress to, int packets) {
        for (int i = 0; i < packets; i++) {
            from.send(ByteBuffer.allocate(ROCE), 0, ROCE, to, 49152);
        }
    }

    /** Both senders of a 2-to-1 incast send {@code packets} at once; the network runs until all is delivered. */
    private static Seen twoBursts(SimulatedNetwork network, int packets) {
        Seen seen = new Seen(network);
        network.attach(Topology.receiver(0)).receiver(seen);
        burst(network.attach(Topology.sender(0)), Topology.receiver(0), packets);
        burst(network.attach(Topology.sender(1)), Topology.receiver(0), packets);
        network.time().runUntil(() -> false, 1_000_000_000L);
        return seen;
    }

    /** A frame that arrived is the fabric's again: the next one carried is the same object, and each counts per pair. */
    @Test
    void aFrameThatArrivedIsCarriedAgainAndCountedPerPair() {
        SimulatedNetwork network = new SimulatedNetwork(1);
        Topology t = Topology.incast(network, 2, LINK, new QueueSettings(1 << 20, RedMarking.OFF, null));
        network.attach(Topology.receiver(0)); // no sink: what is checked is the fabric's
        burst(network.attach(Topology.sender(0)), Topology.receiver(0), 1);
        network.time().runUntil(() -> false, 1_000_000_000L);
        io.jrxe.wire.sim.Frame spare = t.fabric().frame();

        t.fabric().carry(spare.set(Topology.sender(1), Topology.receiver(0), Topology.receiver(0), new byte[ROCE], 49152, 1,
                0));
        network.time().runUntil(() -> false, 1_000_000_000L);

        assertThat(network.delivered()).isEqualTo(2);
        assertThat(t.fabric().frame()).as("the frame, back once it arrived").isSameAs(spare);
        assertThat(t.fabric().deliveredBytes(t.flows().get(0))).isEqualTo(ROCE);
        assertThat(t.fabric().deliveredBytes(t.flows().get(1))).isEqualTo(ROCE);
        assertThat(t.fabric().deliveredBytes(new HostPair(Topology.receiver(0), Topology.sender(0)))).isZero();
    }

    @Test
    void aPacketTakesEachLinksSerialisationAndDelay() {
        SimulatedNetwork network = new SimulatedNetwork(1);
        Topology t = Topology.incast(network, 1, LINK, new QueueSettings(1 << 20, RedMarking.OFF, null));
        SimulatedPort sender = network.attach(Topology.sender(0));
        Seen seen = new Seen(network);
        network.attach(Topology.receiver(0)).receiver(seen);

        burst(sender, Topology.receiver(0), 2);
        network.time().runUntil(() -> false, 1_000_000_000L);

        long serialisation = LINK.serialisationNanos(WIRE);
        assertThat(serialisation).isEqualTo(8528);
        assertThat(seen.times).as("host link then switch link; the second packet one serialisation behind")
                .containsExactly(2 * (serialisation + 1_000), 3 * serialisation + 2 * 1_000);
        assertThat(t.bottleneck().sentFrames()).isEqualTo(2);
        assertThat(seen.ecn).containsOnly(Ecn.NOT_ECT);
    }

    @Test
    void twoSendersIntoOneLinkOverflowASmallBufferAndTheSurplusIsDropped() {
        SimulatedNetwork network = new SimulatedNetwork(1);
        Topology t = Topology.incast(network, 2, LINK, new QueueSettings(10 * WIRE, RedMarking.OFF, null));
        Seen seen = twoBursts(network, 50);

        // Two links' worth arrive where one leaves: the queue gains about one packet per two, and holds 10.
        assertThat(t.bottleneck().drops()).isBetween(35L, 45L);
        assertThat(t.bottleneck().maxDepthBytes()).isLessThanOrEqualTo(10L * WIRE);
        assertThat(network.pathDropped()).isEqualTo(t.bottleneck().drops());
        assertThat(t.fabric().dropped()).isEqualTo(t.bottleneck().drops());
        assertThat(seen.times).hasSize(100 - (int) t.bottleneck().drops());
    }

    @Test
    void pfcPausesTheSendersInsteadOfDropping() {
        SimulatedNetwork network = new SimulatedNetwork(1);
        PfcThresholds pfc = new PfcThresholds(4 * WIRE, 2 * WIRE);
        Topology t = Topology.incast(network, 2, LINK, new QueueSettings(20 * WIRE, RedMarking.OFF, pfc));
        Seen seen = twoBursts(network, 50);

        assertThat(t.bottleneck().drops()).isZero();
        assertThat(seen.times).hasSize(100);
        Switch tor = t.fabric().switches().getFirst();
        assertThat(tor.pausesSent()).isPositive();
        OutputQueue first = t.fabric().hostQueue(Topology.sender(0));
        assertThat(first.pausesReceived()).isPositive();
        assertThat(first.pausedNanos()).isPositive();
        assertThat(first.paused()).as("resumed once drained").isFalse();
        // The bottleneck stayed busy: 100 packets back to back from the first arrival on.
        long serialisation = LINK.serialisationNanos(WIRE);
        assertThat(seen.times.getLast() - seen.times.getFirst()).isEqualTo(99 * serialisation);
    }

    @Test
    void redMarksEcnCapablePacketsAsTheQueueGrowsAndNeverNotEct() {
        SimulatedNetwork network = new SimulatedNetwork(7);
        RedMarking red = new RedMarking(5 * WIRE, 20 * WIRE, 0.5);
        Topology.incast(network, 2, LINK, new QueueSettings(1 << 20, red, null));
        Seen seen = new Seen(network);
        network.attach(Topology.receiver(0)).receiver(seen);
        SimulatedPort capable = network.attach(Topology.sender(0));
        capable.ecnCapable(true);
        burst(capable, Topology.receiver(0), 60);
        burst(network.attach(Topology.sender(1)), Topology.receiver(0), 60);
        network.time().runUntil(() -> false, 1_000_000_000L);

        assertThat(seen.ecn).hasSize(120);
        assertThat(seen.ecn).contains(Ecn.CE, Ecn.ECT_0, Ecn.NOT_ECT);
        assertThat(seen.ecn.stream().filter(e -> e == Ecn.CE).count()).as("the queue passed Kmax: past it all are marked")
                .isGreaterThan(10);
        assertThat(seen.ecn.subList(0, 5)).as("an empty queue marks nothing").doesNotContain(Ecn.CE);
    }

    @Test
    void redsProbabilityRisesLinearlyFromKminToPmaxAtKmax() {
        RedMarking red = new RedMarking(1000, 3000, 0.2);
        assertThat(red.probability(1000)).isZero();
        assertThat(red.probability(2000)).isCloseTo(0.1, within(1e-12));
        assertThat(red.probability(3000)).isCloseTo(0.2, within(1e-12));
        assertThat(red.probability(3001)).isEqualTo(1);
    }

    @Test
    void theSameSeedGivesTheSameFingerprint() {
        assertThat(markedRun(3)).isEqualTo(markedRun(3)).isNotEqualTo(markedRun(4));
    }

    private static long markedRun(long seed) {
        SimulatedNetwork network = new SimulatedNetwork(seed);
        Topology.incast(network, 2, LINK, new QueueSettings(1 << 20, new RedMarking(0, 40 * WIRE, 0.5), null));
        Seen seen = new Seen(network);
        network.attach(Topology.receiver(0)).receiver(seen);
        for (int i = 0; i < 2; i++) {
            SimulatedPort p = network.attach(Topology.sender(i));
            p.ecnCapable(true);
            burst(p, Topology.receiver(0), 40);
        }
        network.time().runUntil(() -> false, 1_000_000_000L);
        return network.fingerprint() * 31 + seen.ecn.hashCode();
    }
}
