package io.jrxe.tools.perftest;

import io.jrxe.tools.common.InProcess;
import io.jrxe.tools.common.OobSocket;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * perftest's TCP exchange byte for byte, against a peer written here that does what perftest's C code does,
 * in both roles: the client writes each piece first, the server reads first.
 */
class PerftestConnectionTest {
    static final byte[] GID = HexFormat.of().parseHex("00000000000000000000ffff7f000102");
    static final int TIMEOUT = 5_000;

    /** The peer's side of every piece, written as perftest writes them (C-style fixed sizes, network order). */
    static final class CPeer {
        final DataInputStream in;
        final OutputStream out;

        CPeer(Socket s) throws Exception {
            s.setSoTimeout(TIMEOUT);
            in = new DataInputStream(s.getInputStream());
            out = s.getOutputStream();
        }

        byte[] read(int n) throws Exception {
            byte[] b = new byte[n];
            in.readFully(b);
            return b;
        }
    }

    private static byte[] version(String v) {
        return Arrays.copyOf(v.getBytes(StandardCharsets.US_ASCII), 16);
    }

    @Test
    void theClientWritesEachPieceFirst() throws Exception {
        try (ServerSocket fake = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            fake.setSoTimeout(TIMEOUT);
            CompletableFuture<String> peer = CompletableFuture.supplyAsync(() -> {
                try (Socket s = fake.accept()) {
                    CPeer p = new CPeer(s);
                    StringBuilder seen = new StringBuilder();
                    // Server role: read the client's piece, then answer with ours.
                    byte[] v = p.read(16);
                    assertThat(v).isEqualTo(version("6.10"));
                    p.out.write(version("6.29"));
                    assertThat(ByteBuffer.wrap(p.read(4)).getInt()).isEqualTo(4096);
                    p.out.write(ByteBuffer.allocate(4).putInt(8192).array());
                    assertThat(ByteBuffer.wrap(p.read(4)).getInt()).isEqualTo(64);
                    p.out.write(ByteBuffer.allocate(4).putInt(128).array());
                    assertThat(p.read(2)).isEqualTo(new byte[] {'5', 0});
                    p.out.write(new byte[] {'3', 0});
                    byte[] keys = p.read(108);
                    seen.append(new String(keys, StandardCharsets.US_ASCII));
                    p.out.write(new PerftestDest(0, 0x10, 0x22, 0x123456, 0xabc, 0x1000, GID, 0).toWire());
                    assertThat(ByteBuffer.wrap(p.read(8)).getLong()).isEqualTo(65536);
                    p.out.write(new byte[8]);
                    assertThat(ByteBuffer.wrap(p.read(8)).getLong()).isEqualTo(5000);
                    p.out.write(new byte[8]);
                    assertThat(ByteBuffer.wrap(p.read(8)).getDouble()).isEqualTo(1.5);
                    p.out.write(new byte[8]);
                    assertThat(ByteBuffer.wrap(p.read(8)).getDouble()).isEqualTo(2.5);
                    p.out.write(new byte[8]);
                    assertThat(ByteBuffer.wrap(p.read(8)).getDouble()).isEqualTo(0.25);
                    p.out.write(ByteBuffer.allocate(8).putDouble(9.0).array());
                    return seen.toString();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            try (PerftestConnection c = new PerftestConnection(OobSocket.connect("127.0.0.1", fake.getLocalPort(), TIMEOUT), true)) {
                assertThat(c.exchangeVersions()).isEqualTo("6.29");
                assertThat(c.exchangeSysData(4096, 64)).containsExactly(8192, 128);
                assertThat(c.exchangeMtu(5)).as("the smaller MTU").isEqualTo(3);
                PerftestDest theirs = c.handshake(new PerftestDest(0, 1, 0x14, 0xabcdef, 0x1dc, 0x7f0000001000L, GID, 0), "keys");
                assertThat(theirs).isEqualTo(new PerftestDest(0, 0x10, 0x22, 0x123456, 0xabc, 0x1000, GID, 0));
                BwReport r = c.exchangeBwReport(new BwReport(65536, 5000, 1.5, 2.5, 0.25), false);
                assertThat(r.msgRateAvg()).isEqualTo(9.0);
            }
            assertThat(peer.get(10, TimeUnit.SECONDS)).isEqualTo("0000:0001:000014:abcdef:000001dc:00007f0000001000:"
                    + "00:00:00:00:00:00:00:00:00:00:ff:ff:7f:00:01:02:00000000:\0");
        }
    }

    @Test
    void theServerReadsEachPieceFirst() throws Exception {
        ServerSocket listening = OobSocket.listen(0);
        int port = listening.getLocalPort();
        CompletableFuture<Object[]> server = CompletableFuture.supplyAsync(() -> {
            try (PerftestConnection c = new PerftestConnection(OobSocket.accept(listening, TIMEOUT, TIMEOUT), false)) {
                String v = c.exchangeVersions();
                int[] sys = c.exchangeSysData(4096, 64);
                int mtu = c.exchangeMtu(3);
                PerftestDest d = c.handshake(new PerftestDest(0, 1, 0x33, 0x010203, 0x1dc, 0x2000, GID, 0), "keys");
                return new Object[] {v, sys, mtu, d};
            }
        });
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), TIMEOUT);
            CPeer p = new CPeer(s);
            // Client role: write first; an old perftest (5.60 would be refused; 5.98 is 4.5-0.2).
            p.out.write(version("5.98"));
            assertThat(p.read(16)).isEqualTo(version("6.10"));
            p.out.write(ByteBuffer.allocate(4).putInt(4096).array());
            assertThat(ByteBuffer.wrap(p.read(4)).getInt()).isEqualTo(4096);
            p.out.write(ByteBuffer.allocate(4).putInt(64).array());
            assertThat(ByteBuffer.wrap(p.read(4)).getInt()).isEqualTo(64);
            p.out.write(new byte[] {'5', 0});
            assertThat(p.read(2)).isEqualTo(new byte[] {'3', 0});
            p.out.write(new PerftestDest(0, 1, 0x44, 0x0a0b0c, 0x99, 0x3000, GID, 0).toWire());
            assertThat(new String(p.read(108), StandardCharsets.US_ASCII)).isEqualTo("0000:0001:000033:010203:000001dc:"
                    + "0000000000002000:00:00:00:00:00:00:00:00:00:00:ff:ff:7f:00:01:02:00000000:\0");
        }
        Object[] r = server.get(10, TimeUnit.SECONDS);
        assertThat(r[0]).isEqualTo("5.98");
        assertThat((int[]) r[1]).containsExactly(4096, 64);
        assertThat(r[2]).isEqualTo(3);
        assertThat(((PerftestDest) r[3]).qpn()).isEqualTo(0x44);
    }

    private static InProcess clientAgainst(String remoteVersion, String addr) throws Exception {
        try (ServerSocket fake = new ServerSocket(0, 1, InetAddress.getByName("127.0.1.90"))) {
            fake.setSoTimeout(TIMEOUT * 4);
            CompletableFuture<Void> peer = CompletableFuture.runAsync(() -> {
                try (Socket s = fake.accept()) {
                    CPeer p = new CPeer(s);
                    p.read(16);
                    p.out.write(version(remoteVersion));
                    s.getInputStream().readAllBytes();
                } catch (Exception e) {
                    // the client gave up
                }
            });
            InProcess r = InProcess.run("write-bw", "--addr", addr, "-d", "jrxe-pt-" + addr, "--timeout", "2", "-p",
                    String.valueOf(fake.getLocalPort()), "127.0.1.90");
            peer.get(20, TimeUnit.SECONDS);
            return r;
        }
    }

    @Test
    void aPeerOlderThan570IsRefusedAsPerftestRefusesIt() throws Exception {
        InProcess old = clientAgainst("5.60", "127.0.1.91");
        assertThat(old.status()).as(old.toString()).isEqualTo(2);
        assertThat(old.err()).contains("Current implementation is not compatible with versions older than 5.70");
    }

    @Test
    void aServerThatStopsAnsweringIsATimeoutInBoundedTime() throws Exception {
        long start = System.nanoTime();
        InProcess mute = clientAgainst("6.29", "127.0.1.93");
        assertThat(mute.status()).as(mute.toString()).isEqualTo(2);
        assertThat(mute.err()).contains("timed out after 2 s").contains("its page size");
        assertThat(mute.err().lines().count()).isEqualTo(1);
        assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)).isLessThan(15);
    }

    @Test
    void atofAsC() {
        assertThat(PerftestConnection.atof("6.10")).isEqualTo(6.1);
        assertThat(PerftestConnection.atof("5.98-rc1")).isEqualTo(5.98);
        assertThat(PerftestConnection.atof("")).isZero();
        assertThat(PerftestConnection.atof("x")).isZero();
        assertThat(PerftestConnection.atol("3\0")).isEqualTo(3);
    }
}
