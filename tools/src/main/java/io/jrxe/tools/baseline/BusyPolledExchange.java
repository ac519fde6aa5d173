package io.jrxe.tools.baseline;

import io.jrxe.tools.UserError;
import io.jrxe.wire.header.AethFlyweight;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.icrc.IcrcCalculator;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * The floor under a jrxe ping-pong: two threads exchange exactly the datagrams that an RC ping-pong puts on the
 * wire, over the same kind of socket jrxe's invoked NIC polls (a non-blocking JDK DatagramChannel), and nothing
 * else. Each side sends its message as {@code packets} datagrams of {@code packetBytes}, and answers each message
 * it receives with a 20-byte datagram, as a responder answers a SEND with an ACK (BTH, AETH, ICRC). Whatever a
 * jrxe pingpong takes beyond this per iteration is jrxe's own work: headers, ICRC, memory translation, the
 * completion queue.
 *
 * <p>Both threads busy-poll, yielding the CPU after a while without a datagram, as jrxe's latency loops do. Every
 * wait is bounded: a datagram lost on the way (a full socket buffer) ends the run with an error after
 * {@link #LOST_AFTER_NANOS}.
 */
final class BusyPolledExchange {
    /** A RoCE packet's UDP payload around its data: BTH before, ICRC after. */
    static final int PACKET_OVERHEAD = BthFlyweight.LENGTH + IcrcCalculator.LENGTH;
    /** An RC ACK on the wire: BTH (12), AETH (4), ICRC (4). */
    static final int ACK_BYTES = BthFlyweight.LENGTH + AethFlyweight.LENGTH + IcrcCalculator.LENGTH;
    static final long LOST_AFTER_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static final int SPINS_BEFORE_YIELD = 64;

    private final InetSocketAddress pingerAt;
    private final InetSocketAddress echoAt;
    private final int packets;
    private final int packetBytes;

    /**
     * @param packets     datagrams per message
     * @param packetBytes bytes per datagram (a RoCE packet's UDP payload: BTH, payload, ICRC)
     */
    BusyPolledExchange(InetSocketAddress pingerAt, InetSocketAddress echoAt, int packets, int packetBytes) {
        this.pingerAt = pingerAt;
        this.echoAt = echoAt;
        this.packets = packets;
        this.packetBytes = packetBytes;
    }

    /**
     * Runs {@code warmup} untimed iterations, then {@code iterations} timed ones.
     *
     * @return each timed iteration's round trip in nanoseconds, sorted
     */
    long[] run(int warmup, int iterations) throws IOException, InterruptedException {
        int total = warmup + iterations;
        try (DatagramChannel pinger = open(pingerAt); DatagramChannel echo = open(echoAt)) {
            Side echoSide = new Side(echo, pingerAt);
            Throwable[] echoFailure = new Throwable[1];
            Thread echoThread = new Thread(() -> {
                try {
                    for (int i = 0; i < total; i++) {
                        echoSide.await(packets + (i > 0 ? 1 : 0)); // the message, and the ACK of the last answer
                        echoSide.answer();
                    }
                } catch (RuntimeException | IOException e) {
                    echoFailure[0] = e;
                }
            }, "udp-baseline-echo");
            echoThread.setDaemon(true);
            echoThread.start();
            Side pingSide = new Side(pinger, echoAt);
            long[] rtt = new long[iterations];
            try {
                for (int i = 0; i < total; i++) {
                    long start = System.nanoTime();
                    if (i > 0) {
                        pingSide.ack();
                    }
                    pingSide.message();
                    pingSide.await(packets + 1); // the ACK of this message, and the answer
                    if (i >= warmup) {
                        rtt[i - warmup] = System.nanoTime() - start;
                    }
                }
            } finally {
                echoThread.join(TimeUnit.NANOSECONDS.toMillis(LOST_AFTER_NANOS) + 1000);
            }
            if (echoFailure[0] != null) {
                throw new UserError("the busy-polled exchange's echo side failed: " + echoFailure[0].getMessage());
            }
            Arrays.sort(rtt);
            return rtt;
        }
    }

    private static DatagramChannel open(InetSocketAddress at) throws IOException {
        DatagramChannel ch = DatagramChannel.open(at.getAddress() instanceof java.net.Inet6Address
                ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET);
        try {
            ch.configureBlocking(false);
            ch.bind(at);
            return ch;
        } catch (IOException e) {
            ch.close();
            throw new UserError("cannot bind " + at.getAddress().getHostAddress() + ":" + at.getPort() + ": " + e.getMessage());
        }
    }

    /** One thread's socket, its peer and its buffers. */
    private final class Side {
        private final DatagramChannel ch;
        private final InetSocketAddress peer;
        private final ByteBuffer packet = ByteBuffer.allocateDirect(packetBytes);
        private final ByteBuffer ack = ByteBuffer.allocateDirect(ACK_BYTES);
        private final ByteBuffer rx = ByteBuffer.allocateDirect(Math.max(packetBytes, ACK_BYTES) + 64);

        Side(DatagramChannel ch, InetSocketAddress peer) {
            this.ch = ch;
            this.peer = peer;
        }

        void message() throws IOException {
            for (int p = 0; p < packets; p++) {
                send(packet);
            }
        }

        void ack() throws IOException {
            send(ack);
        }

        /** The responder's order: the ACK of the message just received, then the answer. */
        void answer() throws IOException {
            ack();
            message();
        }

        private void send(ByteBuffer b) throws IOException {
            b.clear();
            if (ch.send(b, peer) == 0) {
                throw new UserError("the socket buffer was full: a datagram of the busy-polled exchange was not sent");
            }
        }

        void await(int datagrams) throws IOException {
            long since = System.nanoTime();
            int spins = 0;
            for (int got = 0; got < datagrams; ) {
                rx.clear();
                if (ch.receive(rx) != null) {
                    got++;
                    spins = 0;
                    continue;
                }
                if (++spins < SPINS_BEFORE_YIELD) {
                    Thread.onSpinWait();
                    continue;
                }
                Thread.yield();
                if ((spins & 0x3FF) == 0 && System.nanoTime() - since > LOST_AFTER_NANOS) {
                    throw new UserError("a datagram of the busy-polled exchange was lost (" + got + " of " + datagrams
                            + " came within " + TimeUnit.NANOSECONDS.toSeconds(LOST_AFTER_NANOS) + " s)");
                }
            }
        }
    }
}
