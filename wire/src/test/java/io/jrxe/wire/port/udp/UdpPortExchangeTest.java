package io.jrxe.wire.port.udp;

import io.jrxe.wire.port.DropReason;
import io.jrxe.wire.port.PacketInfo;
import io.jrxe.wire.port.PacketSink;
import io.jrxe.wire.port.PeerAddress;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two ports on loopback: what one sends, the other delivers, byte for byte and in order, ICRC
 * checked, whether the packets left one at a time or as one GSO run that may arrive as one GRO
 * buffer (same-size runs), and with sizes that change inside a burst.
 */
class UdpPortExchangeTest {
    private static final PeerAddress A = PeerAddress.of("127.0.6.1");
    private static final PeerAddress B = PeerAddress.of("127.0.6.2");

    private final UdpTransport transport = UdpTransport.best();
    private final EventLoopGroup loopA = transport.newNicThread("test-a");
    private final EventLoopGroup loopB = transport.newNicThread("test-b");
    private UdpPort portA;
    private UdpPort portB;
    private boolean ecnCapable;
    private Recorder recorder;

    @AfterEach
    void close() {
        if (portA != null) {
            portA.close();
        }
        if (portB != null) {
            portB.close();
        }
        loopA.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        loopB.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Test
    void aBurstOfSameSizePacketsArrivesWholeAndInOrder() throws Exception {
        assertThat(exchange(sizes(200, 4112))).containsExactlyElementsOf(expected(sizes(200, 4112)));
    }

    /**
     * ECN-capable, A sends ECT(0) in its GSO batches and B reads its socket with recvmsg, cutting each GRO run back
     * into its datagrams: the same packets arrive, each with the codepoint.
     */
    @Test
    void ecnCapablePortsExchangeTheSamePacketsEachMarkedEct0() throws Exception {
        ecnCapable = true;
        int[] sizes = new int[300];
        for (int i = 0; i < sizes.length; i++) {
            sizes[i] = i < 150 ? 4112 : i % 7 == 0 ? 32 : 60 + (i / 5) * 13 % 4000;
        }
        assertThat(exchange(sizes)).containsExactlyElementsOf(expected(sizes));
        assertThat(recorder.trafficClasses).hasSize(sizes.length).containsOnly(2);
    }

    @Test
    void packetsOfChangingSizesArriveWholeAndInOrder() throws Exception {
        int[] sizes = new int[300];
        for (int i = 0; i < sizes.length; i++) {
            sizes[i] = i % 7 == 0 ? 32 : 60 + (i / 5) * 13 % 4000;
        }
        assertThat(exchange(sizes)).containsExactlyElementsOf(expected(sizes));
    }

    @Test
    void aCorruptedPacketIsDroppedAsBadIcrc() throws Exception {
        Recorder recorder = bindBoth(2);
        ByteBuffer packet = packet(0, 100);
        loopA.next().submit(() -> portA.send(packet, 0, 100, B, 49153)).sync();
        // The port writes the ICRC in place: corrupt a payload byte after that, and send the bytes as they are.
        ByteBuffer corrupted = ByteBuffer.allocate(100);
        corrupted.put(0, packet, 0, 100);
        corrupted.put(50, (byte) (corrupted.get(50) ^ 1));
        try (var raw = java.nio.channels.DatagramChannel.open()) {
            raw.bind(new java.net.InetSocketAddress(A.address(), 0));
            ByteBuffer send = corrupted.duplicate().clear();
            raw.send(send, B.socketAddress());
        }
        assertThat(recorder.done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(recorder.received).as("the packet as the port sent it").hasSize(1);
        assertThat(recorder.drops).as("the same bytes with one bit flipped").containsExactly(DropReason.BAD_ICRC);
    }

    @Test
    void aFlushedPacketLeavesBeforeTheNicTurnEnds() throws Exception {
        Recorder recorder = bindBoth(1);
        // The peer's receipt is awaited inside the sending turn: a packet left for the turn's batched flush
        // would not have left yet.
        boolean arrivedInTurn = loopA.next().submit(() -> {
            portA.send(packet(7, 300), 0, 300, B, 49153);
            portA.flush();
            return recorder.done.await(10, TimeUnit.SECONDS);
        }).get(20, TimeUnit.SECONDS);
        assertThat(arrivedInTurn).as("the packet arrived while its sending turn still ran").isTrue();
        assertThat(recorder.received).containsExactly(describe(packet(7, 300), 0, 300));
    }

    @Test
    void aPreparedSourcePortIsBoundBeforeTheFirstPacketWhichLeavesFromIt() throws Exception {
        Recorder recorder = bindBoth(1);
        int sourcePort = 52_011;
        loopA.next().submit(() -> portA.prepareSource(B, sourcePort)).sync();
        // The bind is asynchronous (the event loop must not block): wait, bounded, until the port says it is bound. Not
        // by trying to bind the address here: such a probe can hold it at the very moment the port binds, and win.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!loopA.next().submit(() -> portA.sourceBound(sourcePort)).get(10, TimeUnit.SECONDS)) {
            assertThat(System.nanoTime()).as("the source port's socket is bound within 10 s").isLessThan(deadline);
            Thread.onSpinWait();
        }
        assertThat(canBind(A, sourcePort)).as("the address is taken").isFalse();
        loopA.next().submit(() -> {
            portA.send(packet(3, 120), 0, 120, B, sourcePort);
            portA.flush();
        }).sync();
        assertThat(recorder.done.await(10, TimeUnit.SECONDS)).isTrue();
        // Unprepared, the first packets of a source port would leave from the 4791 socket while their own is bound.
        assertThat(recorder.sourcePorts).containsExactly(sourcePort);
    }

    /**
     * A peer's QPs send from source ports of their own; the packets of all of them name one source, the same
     * PeerAddress object, which the port keeps per peer address rather than per socket address.
     */
    @Test
    void packetsFromSeveralSourcePortsOfOnePeerNameOneSource() throws Exception {
        Recorder recorder = bindBoth(3);
        int[] sourcePorts = {52_021, 52_022, 52_023};
        for (int sourcePort : sourcePorts) {
            loopA.next().submit(() -> portA.prepareSource(B, sourcePort)).sync();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (int sourcePort : sourcePorts) {
            while (!loopA.next().submit(() -> portA.sourceBound(sourcePort)).get(10, TimeUnit.SECONDS)) {
                assertThat(System.nanoTime()).as("source port %d is bound within 10 s", sourcePort).isLessThan(deadline);
                Thread.onSpinWait();
            }
        }
        loopA.next().submit(() -> {
            for (int i = 0; i < sourcePorts.length; i++) {
                portA.send(packet(i, 120), 0, 120, B, sourcePorts[i]);
            }
            portA.flush();
        }).sync();
        assertThat(recorder.done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(recorder.drops).isEmpty();
        assertThat(recorder.sourcePorts).containsExactlyInAnyOrder(52_021, 52_022, 52_023);
        PeerAddress first = recorder.sources.getFirst();
        assertThat(first).isEqualTo(A);
        assertThat(recorder.sources).hasSize(3).allSatisfy(source -> assertThat(source).isSameAs(first));
    }

    /**
     * Two ports on one address, as on a host whose loopback has only 127.0.0.1: each bound to its own UDP port and
     * sending to the other's. A peer's address comes from its GID, which names no port (4791's PeerAddress); packets
     * still reach the other port, ICRC right, both ways.
     */
    @Test
    void twoPortsOnOneAddressReachEachOtherThroughTheirOwnUdpPorts() throws Exception {
        PeerAddress shared = PeerAddress.of("127.0.6.3");
        portA = UdpPort.bind(transport, loopA.next(), PeerAddress.of(shared.address(), 4791));
        portB = UdpPort.bind(transport, loopB.next(), PeerAddress.of(shared.address(), 4792));
        portA.peersOnPort(4792);
        portB.peersOnPort(4791);
        Recorder atB = new Recorder(50);
        Recorder atA = new Recorder(1);
        portB.receiver(atB);
        portA.receiver(atA);
        loopA.next().submit(() -> {
            for (int i = 0; i < 50; i++) {
                portA.send(packet(i, 1000), 0, 1000, shared, 49153);
            }
        }).sync();
        assertThat(atB.done.await(10, TimeUnit.SECONDS)).as("got %d, drops %s", atB.received.size(), atB.drops).isTrue();
        assertThat(atB.drops).isEmpty();
        assertThat(atB.received).containsExactlyElementsOf(expected(sizes(50, 1000)));
        // From the port's own socket (no source port's socket bound yet): its bound port is the source the ICRC covers.
        loopB.next().submit(() -> portB.send(packet(9, 200), 0, 200, shared, 4792)).sync();
        assertThat(atA.done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(atA.drops).isEmpty();
        assertThat(atA.sourcePorts).containsExactly(4792);
    }

    /** Whether a plain socket (no SO_REUSEPORT) can bind the address: not while a port's socket holds it. */
    private static boolean canBind(PeerAddress at, int udpPort) throws java.io.IOException {
        try (var ch = java.nio.channels.DatagramChannel.open(java.net.StandardProtocolFamily.INET)) {
            ch.bind(new java.net.InetSocketAddress(at.address(), udpPort));
            return true;
        } catch (java.net.BindException e) {
            return false;
        }
    }

    private List<String> exchange(int[] sizes) throws Exception {
        Recorder recorder = bindBoth(sizes.length);
        // One event-loop turn sends them all, so that the port batches them as it does for a busy requester.
        loopA.next().submit(() -> {
            for (int i = 0; i < sizes.length; i++) {
                ByteBuffer p = packet(i, sizes[i]);
                portA.send(p, 0, sizes[i], B, 49153);
            }
        }).sync();
        assertThat(recorder.done.await(10, TimeUnit.SECONDS)).as("all %d packets arrive; got %d and drops %s", sizes.length, recorder.received.size(), recorder.drops).isTrue();
        assertThat(recorder.drops).isEmpty();
        return recorder.received;
    }

    /** Binds both ports; B's packets and drops go to the recorder returned. */
    private Recorder bindBoth(int expected) throws PortInUseException {
        portA = UdpPort.bind(transport, loopA.next(), A);
        portB = UdpPort.bind(transport, loopB.next(), B);
        portA.ecnCapable(ecnCapable);
        portB.ecnCapable(ecnCapable);
        recorder = new Recorder(expected);
        portB.receiver(recorder);
        return recorder;
    }

    private static int[] sizes(int count, int size) {
        int[] sizes = new int[count];
        Arrays.fill(sizes, size);
        return sizes;
    }

    private static List<String> expected(int[] sizes) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < sizes.length; i++) {
            out.add(describe(packet(i, sizes[i]), 0, sizes[i]));
        }
        return out;
    }

    /** A packet whose bytes tell its number; its last four bytes are the ICRC the port fills in. */
    private static ByteBuffer packet(int number, int size) {
        ByteBuffer p = ByteBuffer.allocate(size);
        for (int i = 0; i < size - 4; i++) {
            p.put(i, (byte) (number * 31 + i));
        }
        return p;
    }

    /** Size and content without the ICRC (the receiver checked it). */
    private static String describe(ByteBuffer buffer, int offset, int length) {
        byte[] bytes = new byte[length - 4];
        buffer.get(offset, bytes);
        return length + ":" + Arrays.hashCode(bytes);
    }

    private static final class Recorder implements PacketSink {
        final List<String> received = Collections.synchronizedList(new ArrayList<>());
        final List<DropReason> drops = Collections.synchronizedList(new ArrayList<>());
        final List<Integer> sourcePorts = Collections.synchronizedList(new ArrayList<>());
        final List<PeerAddress> sources = Collections.synchronizedList(new ArrayList<>());
        final List<Integer> trafficClasses = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch done;

        Recorder(int expected) {
            done = new CountDownLatch(expected);
        }

        @Override
        public void packet(ByteBuffer buffer, int offset, int length, PacketInfo info) {
            received.add(describe(buffer, offset, length));
            sourcePorts.add(info.sourcePort);
            sources.add(info.source);
            trafficClasses.add(info.trafficClass);
            done.countDown();
        }

        @Override
        public void dropped(ByteBuffer buffer, int offset, int length, PacketInfo info, DropReason reason) {
            drops.add(reason);
            done.countDown();
        }
    }
}
