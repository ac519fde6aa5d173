package io.jrxe.wire.port.udp;

import io.jrxe.wire.port.DropReason;
import io.jrxe.wire.port.MulticastJoinException;
import io.jrxe.wire.port.PacketInfo;
import io.jrxe.wire.port.PacketSink;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.raw.RawSocketOpener;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Ports join a multicast group on lo and receive what another port sends to it, with the group as the
 * destination and the ICRC checked against it: the event-loop port on epoll and on NIO, the polled port, and a
 * sender on the raw IPv4 path or on its UDP sockets. A port that left receives no more; a group of the other
 * family or a join on the NIC thread is refused with a sentence. Group and addresses are random, so that builds
 * side by side on this host do not meet.
 */
class GroupJoinTest {
    private final List<AutoCloseable> open = new ArrayList<>();
    private final java.util.Map<UdpPort, io.netty.channel.EventLoop> loops = new java.util.HashMap<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : open.reversed()) {
            c.close();
        }
    }

    private UdpPort eventLoopPort(UdpTransport transport, PeerAddress at, RawSocketOpener raw) throws Exception {
        EventLoopGroup loop = transport.newNicThread("group-" + at);
        open.add(() -> loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly());
        UdpPort port = UdpPort.bind(transport, loop.next(), at, raw);
        open.add(port);
        loops.put(port, loop.next());
        return port;
    }

    @ParameterizedTest(name = "{0}, sender on {1}")
    @CsvSource({"EPOLL, raw", "EPOLL, udp", "NIO, udp"})
    void joinedPortsReceiveWhatIsSentToTheGroupAndALeftOneNoMore(UdpTransport transport, String path) throws Exception {
        if (transport == UdpTransport.EPOLL && UdpTransport.best() != UdpTransport.EPOLL) {
            System.out.println("SKIPPED: epoll is unavailable here (" + UdpTransport.epollUnavailableReason() + ")");
            org.junit.jupiter.api.Assumptions.abort("epoll is unavailable");
        }
        ThreadLocalRandom r = ThreadLocalRandom.current();
        String net = "127." + (150 + r.nextInt(50)) + "." + r.nextInt(256) + ".";
        PeerAddress group = PeerAddress.of("239." + (192 + r.nextInt(4)) + "." + r.nextInt(256) + "." + (1 + r.nextInt(254)));
        RawSocketOpener opener = path.equals("raw") ? RawSocketOpener.system() : RawSocketOpener.denied();
        UdpPort sender = eventLoopPort(transport, PeerAddress.of(net + "1"), opener);
        if (path.equals("raw") && sender.transmitPath().kind() != io.jrxe.wire.port.raw.TransmitPath.Kind.RAW_IPV4) {
            System.out.println("SKIPPED: no raw IPv4 socket here (" + sender.transmitPath() + ")");
            org.junit.jupiter.api.Assumptions.abort("no raw IPv4 socket");
        }
        UdpPort member = eventLoopPort(transport, PeerAddress.of(net + "2"), RawSocketOpener.denied());
        PolledUdpPort polled = PolledUdpPort.bind(PeerAddress.of(net + "3"), RawSocketOpener.denied());
        open.add(polled);
        Recorder atMember = new Recorder();
        Recorder atPolled = new Recorder();
        member.receiver(atMember);
        polled.receiver(atPolled);
        member.joinGroup(group);
        polled.joinGroup(group);
        member.joinGroup(group); // a second join changes nothing

        send(sender, group, 1);
        awaitPacket(atMember, 1, null);
        awaitPacket(atPolled, 1, polled);
        for (Recorder rec : List.of(atMember, atPolled)) {
            assertThat(rec.destinations).containsExactly(group);
            assertThat(rec.sources).containsExactly(PeerAddress.of(net + "1"));
            assertThat(rec.drops).isEmpty();
        }

        member.leaveGroup(group);
        send(sender, group, 2);
        awaitPacket(atPolled, 2, polled);
        send(sender, group, 3);
        awaitPacket(atPolled, 3, polled);
        assertThat(atMember.numbers).as("left before packet 2").containsExactly(1);
        assertThat(atPolled.numbers).containsExactly(1, 2, 3);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"EPOLL", "NIO"})
    void aGroupOfTheOtherFamilyOrAJoinOnTheNicThreadIsRefused(UdpTransport transport) throws Exception {
        if (transport == UdpTransport.EPOLL && UdpTransport.best() != UdpTransport.EPOLL) {
            System.out.println("SKIPPED: epoll is unavailable here (" + UdpTransport.epollUnavailableReason() + ")");
            org.junit.jupiter.api.Assumptions.abort("epoll is unavailable");
        }
        ThreadLocalRandom r = ThreadLocalRandom.current();
        UdpPort port = eventLoopPort(transport, PeerAddress.of("127." + (150 + r.nextInt(50)) + "." + r.nextInt(256) + ".9"),
                RawSocketOpener.denied());
        assertThatThrownBy(() -> port.joinGroup(PeerAddress.of("ff0e::1:2"))).isInstanceOf(MulticastJoinException.class)
                .hasMessageContaining("another IP family");
        assertThatThrownBy(() -> port.joinGroup(PeerAddress.of("10.1.2.3"))).isInstanceOf(MulticastJoinException.class)
                .hasMessageContaining("not a multicast address");
        EventLoopGroup loop = transport.newNicThread("group-check");
        open.add(() -> loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly());
        UdpPort other = UdpPort.bind(transport, loop.next(), PeerAddress.of("127." + (150 + r.nextInt(50)) + ".1.8"),
                RawSocketOpener.denied());
        open.add(other);
        Throwable onLoop = loop.next().submit(() -> {
            try {
                other.joinGroup(PeerAddress.of("239.192.0.1"));
                return null;
            } catch (Throwable t) {
                return t;
            }
        }).get(10, TimeUnit.SECONDS);
        assertThat(onLoop).isInstanceOf(IllegalStateException.class).hasMessageContaining("not on the NIC thread");
    }

    /** Sends, on the port's NIC thread, a 64-byte packet (its last four bytes the ICRC) whose first byte is its number. */
    private void send(UdpPort from, PeerAddress group, int number) throws Exception {
        ByteBuffer p = ByteBuffer.allocate(64);
        p.put(0, (byte) number);
        loops.get(from).submit(() -> from.send(p, 0, 64, group, 49153)).sync();
    }

    private static void awaitPacket(Recorder rec, int count, PolledUdpPort polled) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (rec.numbers.size() < count && System.nanoTime() < deadline) {
            if (polled != null) {
                polled.receive(16);
            } else {
                Thread.onSpinWait();
            }
        }
        assertThat(rec.numbers).as("packets received; drops %s", rec.drops).hasSizeGreaterThanOrEqualTo(count);
    }

    private static final class Recorder implements PacketSink {
        final List<Integer> numbers = Collections.synchronizedList(new ArrayList<>());
        final List<PeerAddress> destinations = Collections.synchronizedList(new ArrayList<>());
        final List<PeerAddress> sources = Collections.synchronizedList(new ArrayList<>());
        final List<DropReason> drops = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void packet(ByteBuffer buffer, int offset, int length, PacketInfo info) {
            destinations.add(info.destination);
            sources.add(info.source);
            numbers.add((int) buffer.get(offset));
        }

        @Override
        public void dropped(ByteBuffer buffer, int offset, int length, PacketInfo info, DropReason reason) {
            drops.add(reason);
        }
    }
}
