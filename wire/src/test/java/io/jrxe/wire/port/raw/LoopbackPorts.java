package io.jrxe.wire.port.raw;

import io.jrxe.wire.port.DropReason;
import io.jrxe.wire.port.PacketInfo;
import io.jrxe.wire.port.PacketSink;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.udp.UdpPort;
import io.jrxe.wire.port.udp.UdpTransport;
import io.netty.channel.EventLoopGroup;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Two real ports on loopback addresses, each with its own NIC thread: A sends (through whatever
 * transmit path its opener gives it), B records every packet it receives or drops, with the IP
 * identification its receive path solved for.
 */
final class LoopbackPorts implements AutoCloseable {
    record Received(byte[] roce, int identification, int sourcePort, String source) {
    }

    private final EventLoopGroup groupA;
    private final EventLoopGroup groupB;
    final UdpPort a;
    final UdpPort b;
    /** Copies of the first packets B receives; past this many they are only counted. */
    private static final int KEPT = 10_000;

    private final List<Received> received = new ArrayList<>();
    private final List<DropReason> drops = new ArrayList<>();
    private long receivedCount;

    private LoopbackPorts(EventLoopGroup groupA, EventLoopGroup groupB, UdpPort a, UdpPort b) {
        this.groupA = groupA;
        this.groupB = groupB;
        this.a = a;
        this.b = b;
        b.receiver(new PacketSink() {
            @Override
            public void packet(ByteBuffer buffer, int offset, int length, PacketInfo info) {
                synchronized (received) {
                    if (receivedCount++ < KEPT) {
                        byte[] copy = new byte[length];
                        buffer.get(offset, copy);
                        received.add(new Received(copy, info.identification, info.sourcePort, info.source.toString()));
                    }
                    received.notifyAll();
                }
            }

            @Override
            public void dropped(ByteBuffer buffer, int offset, int length, PacketInfo info, DropReason reason) {
                synchronized (received) {
                    drops.add(reason);
                }
            }
        });
    }

    /** Binds A (its raw socket opened with openerA) and B (UDP transmit: it only receives here). */
    static LoopbackPorts open(String addressA, String addressB, RawSocketOpener openerA) throws Exception {
        UdpTransport transport = UdpTransport.best();
        EventLoopGroup groupA = transport.newNicThread("test-a");
        EventLoopGroup groupB = transport.newNicThread("test-b");
        UdpPort a = null;
        try {
            a = UdpPort.bind(transport, groupA.next(), PeerAddress.of(addressA), openerA, true);
            UdpPort b = UdpPort.bind(transport, groupB.next(), PeerAddress.of(addressB), RawSocketOpener.denied());
            return new LoopbackPorts(groupA, groupB, a, b);
        } catch (Exception e) {
            if (a != null) {
                a.close();
            }
            groupA.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            groupB.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            throw e;
        }
    }

    /** Sends the packets from A to B, in order, from UDP source port srcPort, on A's NIC thread. */
    void send(List<byte[]> packets, int srcPort) {
        onNicThreadOfA(() -> {
            for (byte[] p : packets) {
                a.send(ByteBuffer.wrap(p), 0, p.length, b.localAddress(), srcPort);
            }
        });
    }

    /** Runs the task on A's NIC thread and waits for it. */
    void onNicThreadOfA(Runnable task) {
        groupA.next().submit(task).syncUninterruptibly();
    }

    /** Packets B received so far, kept or not. */
    long receivedCount() {
        synchronized (received) {
            return receivedCount;
        }
    }

    /** Waits, at most timeoutMillis, until B has received (or dropped) n packets; returns what it received. */
    List<Received> awaitReceived(int n, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        synchronized (received) {
            long left;
            while (receivedCount + drops.size() < n && (left = deadline - System.nanoTime()) > 0) {
                received.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
            return new ArrayList<>(received);
        }
    }

    List<DropReason> drops() {
        synchronized (received) {
            return new ArrayList<>(drops);
        }
    }

    @Override
    public void close() {
        a.close();
        b.close();
        groupA.shutdownGracefully(0, 100, TimeUnit.MILLISECONDS).syncUninterruptibly();
        groupB.shutdownGracefully(0, 100, TimeUnit.MILLISECONDS).syncUninterruptibly();
    }
}
