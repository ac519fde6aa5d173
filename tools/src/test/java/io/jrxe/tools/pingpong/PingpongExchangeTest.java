package io.jrxe.tools.pingpong;

import io.jrxe.tools.UserError;
import io.jrxe.tools.common.InProcess;
import io.jrxe.tools.common.OobSocket;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The TCP exchange byte for byte against a peer written here, in both roles: the client sends its 52 bytes
 * first, reads the server's and sends "done" with its NUL; the server answers only after its QP is connected.
 */
class PingpongExchangeTest {
    private static final byte[] CLIENT_GID = HexFormat.of().parseHex("00000000000000000000ffff7f000102");
    private static final byte[] SERVER_GID = HexFormat.of().parseHex("00000000000000000000ffff7f000101");
    private static final int TIMEOUT = 5_000;

    @Test
    void clientSpeaksFirstThenSaysDone() throws Exception {
        try (ServerSocket fake = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            fake.setSoTimeout(TIMEOUT);
            CompletableFuture<byte[][]> peer = CompletableFuture.supplyAsync(() -> {
                try (Socket s = fake.accept()) {
                    s.setSoTimeout(TIMEOUT);
                    DataInputStream in = new DataInputStream(s.getInputStream());
                    byte[] first = new byte[52];
                    in.readFully(first);
                    s.getOutputStream().write(new PingpongDest(0, 0x22, 0x010203, SERVER_GID).toWire());
                    byte[] done = new byte[5];
                    in.readFully(done);
                    return new byte[][] {first, done, new byte[] {(byte) in.read()}};
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            PingpongDest remote = PingpongExchange.client("127.0.0.1", fake.getLocalPort(), TIMEOUT,
                    new PingpongDest(0, 0x11, 0x4b1d2c, CLIENT_GID));
            byte[][] seen = peer.get(10, TimeUnit.SECONDS);
            assertThat(new String(seen[0], StandardCharsets.US_ASCII))
                    .isEqualTo("0000:000011:4b1d2c:00000000000000000000ffff7f000102\0");
            assertThat(seen[1]).isEqualTo(new byte[] {'d', 'o', 'n', 'e', 0});
            assertThat(seen[2][0]).as("then the client closes").isEqualTo((byte) -1);
            assertThat(remote).isEqualTo(new PingpongDest(0, 0x22, 0x010203, SERVER_GID));
        }
    }

    @Test
    void serverConnectsItsQpBeforeItAnswers() throws Exception {
        ServerSocket listening = OobSocket.listen(0);
        int port = listening.getLocalPort();
        AtomicBoolean connected = new AtomicBoolean();
        CompletableFuture<PingpongDest> server = CompletableFuture.supplyAsync(() -> PingpongExchange.server(listening, TIMEOUT,
                TIMEOUT, new PingpongDest(0, 0x33, 0x0a0b0c, SERVER_GID), remote -> {
                    assertThat(remote.qpn()).isEqualTo(0x11);
                    connected.set(true);
                }));
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), TIMEOUT);
            s.setSoTimeout(TIMEOUT);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            out.write(new PingpongDest(0, 0x11, 0x4b1d2c, CLIENT_GID).toWire());
            byte[] answer = new DataInputStream(in).readNBytes(52);
            assertThat(connected).as("the QP was connected before the answer was sent").isTrue();
            assertThat(new String(answer, StandardCharsets.US_ASCII))
                    .isEqualTo("0000:000033:0a0b0c:00000000000000000000ffff7f000101\0");
            out.write(PingpongDest.DONE);
            assertThat(server.get(10, TimeUnit.SECONDS)).isEqualTo(new PingpongDest(0, 0x11, 0x4b1d2c, CLIENT_GID));
        }
    }

    /**
     * ibv_srq_pingpong sends 256 address messages whatever its -q: the first -q real, the rest whatever its unused
     * array entries hold (here bytes that are no address at all). The server reads all 256, uses the first -q,
     * and answers with 256 of its own.
     */
    @Test
    void srqPingpongsExchangeIsAlways256MessagesEachWay() throws Exception {
        ServerSocket listening = OobSocket.listen(0);
        int port = listening.getLocalPort();
        java.util.List<PingpongDest> serverQps = java.util.List.of(new PingpongDest(0, 0x40, 1, SERVER_GID),
                new PingpongDest(0, 0x41, 2, SERVER_GID));
        CompletableFuture<java.util.List<PingpongDest>> server = CompletableFuture.supplyAsync(() ->
                PingpongExchange.server(listening, TIMEOUT, TIMEOUT, serverQps, SrqPingpongCommand.EXCHANGE_SLOTS, r -> { }));
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), TIMEOUT);
            s.setSoTimeout(TIMEOUT);
            OutputStream out = s.getOutputStream();
            out.write(new PingpongDest(0, 0x11, 0x100, CLIENT_GID).toWire());
            out.write(new PingpongDest(0, 0x12, 0x200, CLIENT_GID).toWire());
            byte[] garbage = new byte[52];
            java.util.Arrays.fill(garbage, (byte) 0x7f);
            for (int i = 2; i < 256; i++) {
                out.write(garbage);
            }
            byte[] answers = new DataInputStream(s.getInputStream()).readNBytes(256 * 52);
            assertThat(answers).hasSize(256 * 52);
            assertThat(new String(answers, 52, 52, StandardCharsets.US_ASCII))
                    .isEqualTo("0000:000041:000002:00000000000000000000ffff7f000101\0");
            assertThat(new String(answers, 255 * 52, 52, StandardCharsets.US_ASCII))
                    .isEqualTo("0000:000000:000000:00000000000000000000000000000000\0");
            out.write(PingpongDest.DONE);
            assertThat(server.get(10, TimeUnit.SECONDS)).containsExactly(new PingpongDest(0, 0x11, 0x100, CLIENT_GID),
                    new PingpongDest(0, 0x12, 0x200, CLIENT_GID));
        }
    }

    @Test
    void aServerThatNeverAnswersIsATimeoutInBoundedTime() throws Exception {
        try (ServerSocket mute = new ServerSocket(0, 1, InetAddress.getByName("127.0.1.60"))) {
            CompletableFuture<Void> hold = CompletableFuture.runAsync(() -> {
                try (Socket s = mute.accept()) {
                    s.getInputStream().readAllBytes();
                } catch (Exception e) {
                    // the client gave up: done
                }
            });
            long start = System.nanoTime();
            InProcess r = InProcess.run("pingpong", "--addr", "127.0.1.61", "-d", "jrxe-pp-mute", "--timeout", "1",
                    "-p", String.valueOf(mute.getLocalPort()), "127.0.1.60");
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
            assertThat(r.status()).as(r.toString()).isEqualTo(2);
            assertThat(r.err()).contains("timed out after 1 s waiting for the peer").contains("its address");
            assertThat(r.err().lines().count()).as("one line, no stack trace").isEqualTo(1);
            assertThat(seconds).isLessThan(10);
            hold.get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void nobodyListeningIsAConnectTimeout() {
        long start = System.nanoTime();
        assertThatThrownBy(() -> OobSocket.connect("127.0.1.62", 1, 500)).isInstanceOf(UserError.class)
                .hasMessageContaining("couldn't connect to 127.0.1.62:1 within 0.5 s");
        assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)).isLessThan(5);
    }

    /** A peer that completes the exchange but whose QP never answers: the client's sends fail in bounded time. */
    @Test
    void aPeerWhoseQpNeverAnswersFailsTheRunInBoundedTime() throws Exception {
        try (ServerSocket fake = new ServerSocket(0, 1, InetAddress.getByName("127.0.1.63"))) {
            fake.setSoTimeout(20_000);
            CompletableFuture<Void> peer = CompletableFuture.runAsync(() -> {
                try (Socket s = fake.accept()) {
                    s.setSoTimeout(20_000);
                    new DataInputStream(s.getInputStream()).readFully(new byte[52]);
                    // An address where no RoCE device listens.
                    s.getOutputStream().write(new PingpongDest(0, 0x11, 1,
                            HexFormat.of().parseHex("00000000000000000000ffff7f0001fe")).toWire());
                    s.getInputStream().readAllBytes();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            long start = System.nanoTime();
            InProcess r = InProcess.run("pingpong", "--addr", "127.0.1.64", "-d", "jrxe-pp-deaf", "--timeout", "5",
                    "-p", String.valueOf(fake.getLocalPort()), "-n", "5", "127.0.1.63");
            assertThat(r.status()).as(r.toString()).isEqualTo(2);
            assertThat(r.err()).contains("Failed status transport retry counter exceeded (12) for wr_id 2");
            assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)).isLessThan(15);
            peer.get(10, TimeUnit.SECONDS);
        }
    }
}
