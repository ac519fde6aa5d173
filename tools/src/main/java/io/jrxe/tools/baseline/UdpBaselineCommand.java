package io.jrxe.tools.baseline;

import io.jrxe.tools.BadOption;
import io.jrxe.tools.UserError;
import io.jrxe.wire.port.udp.UdpTransport;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.SegmentedDatagramPacket;
import io.netty.channel.socket.DatagramPacket;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * `jrxe udp-baseline`: this machine's raw UDP ceiling with the transport and socket options
 * jrxe uses (Netty epoll with recvmmsg, or NIO), so that every jrxe number can be stated as a
 * fraction of it: bandwidth with 4 KiB datagrams, with and without UDP GSO, and the ping-pong
 * round trip of a small datagram; then what one thread does with no network stack at all, copying memory
 * ({@link MemoryCopyLoop}) and computing and solving ICRCs ({@link IcrcSendLoop}, {@link IdentificationSolveLoop}),
 * the limit of a wire that only copies packets; with {@code --exchange-floor}, the round trip of an RC ping-pong's datagrams
 * between two busy-polling threads ({@link BusyPolledExchange}); with {@code --pauses}, how often the machine itself
 * stops a running thread ({@link PauseMeter}).
 */
@Command(name = "udp-baseline", mixinStandardHelpOptions = true,
        description = "Measures raw UDP between two loopback addresses with jrxe's transport: bandwidth with 4 KiB "
                + "datagrams (plain and with UDP GSO) and the round trip of a small datagram; then, with no network stack, "
                + "one thread's memory-copy rate and ICRC rates.")
public final class UdpBaselineCommand implements java.util.concurrent.Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--addr-a", defaultValue = "127.0.0.1", description = "sender's address (default: ${DEFAULT-VALUE})")
    String addressA;

    @Option(names = "--addr-b", defaultValue = "127.0.0.2", description = "receiver's address (default: ${DEFAULT-VALUE})")
    String addressB;

    @Option(names = "--port", defaultValue = "14791", description = "UDP port for the test sockets (default: ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--seconds", defaultValue = "2", description = "length of each bandwidth run, and of each copy and ICRC rate (default: ${DEFAULT-VALUE})")
    double seconds;

    @Option(names = "--size", defaultValue = "4096", description = "datagram size for the bandwidth runs (default: ${DEFAULT-VALUE})")
    int size;

    @Option(names = {"-n", "--iters"}, defaultValue = "20000", description = "ping-pong round trips (default: ${DEFAULT-VALUE})")
    int iterations;

    @Option(names = "--exchange-floor", description = "also time two threads busy-polling JDK sockets that exchange "
            + "exactly the datagrams of an RC ping-pong (a 64-byte message, and a 4096-byte one at MTU 1024, each "
            + "answered by a 20-byte ACK): the floor under jrxe pingpong's usec/iter")
    boolean exchangeFloor;

    @Option(names = "--pauses", description = "also count how often this machine stops a running thread: one thread "
            + "per core reads the clock for --seconds, and every gap above 2 us is a pause (timer interrupts, the "
            + "kernel, other processes, a virtual machine's host). The part of a latency tail no program removes")
    boolean pauses;

    @Option(names = "--no-copy-crc", description = "skip the rates with no network stack: one thread copying 64 KiB "
            + "blocks between two 64 MiB buffers and within the cache, computing the ICRC of packets sent and solving "
            + "the IP identification of packets received (1024- and 4096-byte payloads), each for --seconds")
    boolean noCopyAndCrc;

    /** Each buffer of the main-memory copy: larger than any cache, so every block comes from and goes to memory. */
    private static final int COPY_WORKING_SET = 64 << 20;
    /** Payloads of the ICRC rates: a packet at path MTU 1024, the tools' default, and at 4096. */
    private static final int[] ICRC_PAYLOADS = {1024, 4096};

    /** A message of the floor, and the RoCE packets it takes (BTH, payload, ICRC each). */
    private record FloorMessage(int bytes, int packets, int packetBytes) {
    }

    private static final FloorMessage[] FLOOR_MESSAGES = { // pingpong -s 64, and its defaults (4096 bytes at MTU 1024)
        new FloorMessage(64, 1, BusyPolledExchange.PACKET_OVERHEAD + 64),
        new FloorMessage(4096, 4, BusyPolledExchange.PACKET_OVERHEAD + 1024)};

    private final AtomicLong sendErrors = new AtomicLong();
    private volatile String lastError;

    @Override
    public Integer call() throws Exception {
        if (seconds <= 0 || seconds > 600 || size < 16 || size > 65000 || iterations < 1 || iterations > 10_000_000) {
            throw new BadOption("--seconds " + seconds + ", --size " + size + ", --iters " + iterations + ": --seconds must be in (0, 600], --size in 16..65000, --iters in 1..10000000");
        }
        PrintWriter out = spec.commandLine().getOut();
        UdpTransport transport = UdpTransport.best();
        out.printf("udp-baseline: %s -> %s, transport %s%n", addressA, addressB, transport.describe());
        EventLoopGroup sendLoop = transport.newNicThread("baseline-a");
        EventLoopGroup recvLoop = transport.newNicThread("baseline-b");
        try {
            AtomicLong received = new AtomicLong();
            Channel receiver = bind(transport, recvLoop, addressB, port, (ctx, msg) -> received.addAndGet(msg.content().readableBytes()));
            Channel sender = bind(transport, sendLoop, addressA, port, (ctx, msg) -> { });
            InetSocketAddress to = new InetSocketAddress(addressB, port);
            double plain = bandwidth(sender, to, received, false);
            out.printf("bandwidth, %d-byte datagrams:            %.2f GB/s%n", size, plain / 1e9);
            if (transport == UdpTransport.EPOLL) {
                double gso = bandwidth(sender, to, received, true);
                out.printf("bandwidth, %d-byte datagrams, UDP GSO:   %.2f GB/s%n", size, gso / 1e9);
            }
            sender.close().sync();
            receiver.close().sync();
            if (sendErrors.get() > 0) {
                out.printf("(%d socket errors, the last: %s)%n", sendErrors.get(), lastError);
            }
            long[] rtt = pingPong(transport, sendLoop, recvLoop, to);
            Arrays.sort(rtt);
            out.printf("ping-pong round trip, 64 bytes, %d iterations: p50 %.2f us, p99 %.2f us, p99.9 %.2f us, min %.2f us%n",
                    iterations, rtt[rtt.length / 2] / 1e3, percentile(rtt, 0.99) / 1e3, percentile(rtt, 0.999) / 1e3, rtt[0] / 1e3);
            out.flush();
            if (!noCopyAndCrc) {
                copyAndCrc(out);
            }
            if (exchangeFloor) {
                exchangeFloor(out);
            }
            if (pauses) {
                pauses(out);
            }
        } finally {
            sendLoop.shutdownGracefully(0, 100, TimeUnit.MILLISECONDS).sync();
            recvLoop.shutdownGracefully(0, 100, TimeUnit.MILLISECONDS).sync();
        }
        return 0;
    }

    /** The limits of a wire that only copies packets: one thread's memory copy, ICRC on send, solve on receive. */
    private void copyAndCrc(PrintWriter out) {
        long nanos = (long) (seconds * 1e9);
        out.printf("memory copy, 64 KiB blocks between two %d MiB buffers, one thread:  %.0f MiB/s%n",
                COPY_WORKING_SET >> 20, copyRate(COPY_WORKING_SET, nanos));
        out.flush();
        out.printf("memory copy, one 64 KiB block to another (cache-hot), one thread:  %.0f MiB/s%n",
                copyRate(MemoryCopyLoop.BLOCK_BYTES, nanos));
        out.flush();
        for (int payload : ICRC_PAYLOADS) {
            IcrcSendLoop send = new IcrcSendLoop(payload);
            TimedLoop.Rate r = send.run(nanos);
            if (!send.lastIcrcRight()) {
                throw new IllegalStateException("the ICRC written into a " + r.bytesPerUnit() + "-byte packet is wrong");
            }
            out.printf("ICRC on send, IPv4, %d-byte packets (%d-byte payload), one thread:  %.0f MiB/s, %.2f M packets/s%n",
                    r.bytesPerUnit(), payload, r.mibPerSecond(), r.unitsPerSecond() / 1e6);
            out.flush();
        }
        for (int payload : ICRC_PAYLOADS) {
            IdentificationSolveLoop solve = new IdentificationSolveLoop(payload);
            TimedLoop.Rate r = solve.run(nanos);
            if (solve.wrongAnswers() != 0) {
                throw new IllegalStateException(solve.wrongAnswers() + " of " + r.units()
                        + " identifications solved wrong for " + r.bytesPerUnit() + "-byte packets");
            }
            out.printf("ICRC identification solve on receive, IPv4, %d-byte packets, one thread:  %.0f MiB/s, %.2f M packets/s%n",
                    r.bytesPerUnit(), r.mibPerSecond(), r.unitsPerSecond() / 1e6);
            out.flush();
        }
    }

    /** MiB/s of one thread copying 64 KiB blocks between two buffers of {@code workingSet} bytes. */
    private static double copyRate(int workingSet, long nanos) {
        try (MemoryCopyLoop copy = new MemoryCopyLoop(workingSet)) {
            double rate = copy.run(nanos).mibPerSecond();
            if (!copy.everyCopyArrived()) {
                throw new IllegalStateException("a copied 64 KiB block did not read back as its source");
            }
            return rate;
        }
    }

    private void exchangeFloor(PrintWriter out) throws Exception {
        InetSocketAddress pinger = new InetSocketAddress(addressA, port + 3);
        InetSocketAddress echo = new InetSocketAddress(addressB, port + 3);
        for (FloorMessage m : FLOOR_MESSAGES) {
            long[] rtt = new BusyPolledExchange(pinger, echo, m.packets(), m.packetBytes()).run(Math.min(2000, iterations), iterations);
            out.printf("busy-polled RC exchange, %d-byte message (%d x %d B, ACK %d B), %d iterations: p50 %.2f us, p99 %.2f us, p99.9 %.2f us%n",
                    m.bytes(), m.packets(), m.packetBytes(), BusyPolledExchange.ACK_BYTES, iterations,
                    rtt[rtt.length / 2] / 1e3, percentile(rtt, 0.99) / 1e3, percentile(rtt, 0.999) / 1e3);
            out.flush();
        }
    }

    /** The value below which {@code share} of the sorted samples lie. */
    private static long percentile(long[] sorted, double share) {
        return sorted[Math.min(sorted.length - 1, (int) (sorted.length * share))];
    }

    private void pauses(PrintWriter out) throws InterruptedException {
        int threads = Math.min(64, Runtime.getRuntime().availableProcessors());
        PauseMeter.Result r = new PauseMeter(threads, (long) (seconds * 1e9)).run();
        StringBuilder rates = new StringBuilder();
        for (int i = 0; i < PauseMeter.THRESHOLD_MICROS.length; i++) {
            long us = PauseMeter.THRESHOLD_MICROS[i];
            rates.append(i == 0 ? "" : ", ").append('>').append(us >= 1000 ? us / 1000 + " ms" : us + " us")
                    .append(' ').append(Math.round(r.perThreadSecond(i)));
        }
        out.printf("machine pauses, %d threads spinning %.1f s with no socket: per thread-second %s; %.1f%% of the time "
                + "lost, the longest %.2f ms%n", r.threads(), r.seconds(), rates, 100 * r.pausedShare(), r.longestNanos() / 1e6);
        out.flush();
    }

    private interface OnDatagram {
        void handle(ChannelHandlerContext ctx, DatagramPacket msg);
    }

    private Channel bind(UdpTransport transport, EventLoopGroup loop, String address, int udpPort, OnDatagram handler)
            throws InterruptedException {
        Bootstrap b = new Bootstrap().group(loop).channel(transport.channelClass())
                .option(ChannelOption.SO_RCVBUF, 8 << 20).option(ChannelOption.SO_SNDBUF, 8 << 20)
                .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator((size + 64) * 16))
                .handler(new SimpleChannelInboundHandler<DatagramPacket>() {
                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket msg) {
                        handler.handle(ctx, msg);
                    }

                    @Override
                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                        sendErrors.incrementAndGet();
                        lastError = cause.getMessage();
                    }
                });
        if (transport == UdpTransport.EPOLL) {
            b.option(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, size + 64);
        }
        try {
            return b.bind(new InetSocketAddress(address, udpPort)).sync().channel();
        } catch (Exception e) {
            throw new UserError("cannot bind " + address + ":" + udpPort + ": " + e.getMessage());
        }
    }

    /** Sends as fast as the socket takes datagrams for the run's length; returns bytes/s received. */
    private double bandwidth(Channel sender, InetSocketAddress to, AtomicLong received, boolean gso) throws Exception {
        int segmentsPerWrite = gso ? Math.max(1, Math.min(16, 65_000 / size)) : 1; // a GSO write is one UDP datagram to the stack: < 64 KiB
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        CountDownLatch done = new CountDownLatch(1);
        long startBytes = received.get();
        long start = System.nanoTime();
        Runnable burst = new Runnable() {
            @Override
            public void run() {
                for (int i = 0; i < 64 && sender.isWritable(); i++) {
                    ByteBuf buf = sender.alloc().directBuffer(size * segmentsPerWrite).writeZero(size * segmentsPerWrite);
                    sender.write(gso ? new SegmentedDatagramPacket(buf, size, to) : new DatagramPacket(buf, to), sender.voidPromise());
                }
                sender.flush();
                if (System.nanoTime() < deadline) {
                    sender.eventLoop().execute(this);
                } else {
                    done.countDown();
                }
            }
        };
        sender.eventLoop().execute(burst);
        if (!done.await((long) (seconds * 1000) + 10_000, TimeUnit.MILLISECONDS)) {
            throw new UserError("the bandwidth run did not finish");
        }
        long elapsed = System.nanoTime() - start;
        return (received.get() - startBytes) * 1e9 / elapsed;
    }

    /** One datagram at a time, echoed back: the round trip through the transport. */
    private long[] pingPong(UdpTransport transport, EventLoopGroup loopA, EventLoopGroup loopB, InetSocketAddress to)
            throws Exception {
        long[] rtt = new long[iterations];
        CountDownLatch done = new CountDownLatch(1);
        int[] count = {0};
        long[] sentAt = {0};
        Channel echo = bind(transport, loopB, addressB, port + 1, (ctx, msg) ->
                ctx.writeAndFlush(new DatagramPacket(msg.content().retain(), msg.sender())));
        InetSocketAddress echoAt = new InetSocketAddress(to.getAddress(), port + 1);
        Channel[] pinger = new Channel[1];
        pinger[0] = bind(transport, loopA, addressA, port + 2, (ctx, msg) -> {
            rtt[count[0]++] = System.nanoTime() - sentAt[0];
            if (count[0] == iterations) {
                done.countDown();
                return;
            }
            sentAt[0] = System.nanoTime();
            ctx.writeAndFlush(new DatagramPacket(ctx.alloc().directBuffer(64).writeZero(64), echoAt));
        });
        pinger[0].eventLoop().execute(() -> {
            sentAt[0] = System.nanoTime();
            pinger[0].writeAndFlush(new DatagramPacket(pinger[0].alloc().directBuffer(64).writeZero(64), echoAt));
        });
        boolean finished = done.await(60, TimeUnit.SECONDS);
        echo.close().sync();
        pinger[0].close().sync();
        if (!finished) {
            throw new UserError("the ping-pong did not finish within 60 s (" + count[0] + " of " + iterations + " round trips)");
        }
        return rtt;
    }
}
