package io.jrxe.tools.perftest;

import io.jrxe.tools.common.InProcess;
import io.jrxe.tools.common.OobSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * perftest 6.28's parameter negotiation, byte for byte, against a peer written here from perftest's source
 * (negotiate_params, struct perftest_parameters_negotiate as gcc lays it out on x86-64: 320 bytes with mlx5dv, 312
 * without), with jrxe's commands as the client and as the server. The peer plays the exchange up to the first key
 * message, which shows that the negotiation left the stream where perftest expects it.
 */
class PerftestNegotiationTest {
    static final int TIMEOUT = 20_000;
    /** max_qp_rd_atom's offset in the struct: the attributes at 80, the field at 144 of them. */
    static final int MAX_QP_RD_ATOM = 80 + 144;

    /** The C peer's side: fixed-size reads and writes, as perftest's ctx_xchg_data does them. */
    record Peer(DataInputStream in, OutputStream out) {
        static Peer of(Socket s) throws Exception {
            s.setSoTimeout(TIMEOUT);
            return new Peer(new DataInputStream(s.getInputStream()), s.getOutputStream());
        }

        byte[] read(int n) throws Exception {
            byte[] b = new byte[n];
            in.readFully(b);
            return b;
        }

        void write(byte[] b) throws Exception {
            out.write(b);
            out.flush();
        }
    }

    static byte[] version(String v) {
        return Arrays.copyOf(v.getBytes(StandardCharsets.US_ASCII), 16);
    }

    /**
     * A struct as perftest fills it for `ib_read_bw -s 65536 -n 100` (or the values given): network-order settings,
     * the device attributes in x86 order with rxe's max_qp_rd_atom unless {@code maxQpRdAtom} says otherwise.
     */
    static byte[] struct(int length, int verb, int tst, long size, long iters, int maxQpRdAtom, int dataValidation) {
        ByteBuffer b = ByteBuffer.allocate(length);
        b.putInt(0, 0).putInt(4, 0).putInt(8, verb).putInt(12, tst).putInt(16, 0).putInt(20, 0).putInt(24, 1);
        b.putLong(32, size).putLong(40, iters);
        b.putInt(52, 1).putInt(56, 5).putInt(76, dataValidation);
        b.put(80, "2.1.0".getBytes(StandardCharsets.US_ASCII));
        b.order(ByteOrder.LITTLE_ENDIAN).putInt(MAX_QP_RD_ATOM, maxQpRdAtom);
        return b.array();
    }

    /** The exchange before the negotiation, perftest as the server: version, page and cache line sizes, MTU. */
    static void serverPreamble(Peer p, String version) throws Exception {
        serverPreamble(p, version, "6.10");
    }

    /** As above, with the version jrxe is expected to announce. */
    static void serverPreamble(Peer p, String version, String jrxeVersion) throws Exception {
        assertThat(p.read(16)).isEqualTo(version(jrxeVersion));
        p.write(version(version));
        p.read(4);
        p.write(ByteBuffer.allocate(4).putInt(4096).array());
        p.read(4);
        p.write(ByteBuffer.allocate(4).putInt(64).array());
        p.read(2);
        p.write(new byte[] {'3', 0});
    }

    /** The client's first key message after the negotiation: the GID form, 108 bytes. */
    static PerftestDest keyMessage(Peer p) throws Exception {
        return PerftestDest.parse(p.read(PerftestDest.MESSAGE_SIZE_GID), true);
    }

    record ClientRun(InProcess jrxe, byte[] sent, PerftestDest keys) {
    }

    /** `jrxe read-bw` as the client of a fake perftest server that answers the negotiation with {@code answer}. */
    static ClientRun clientAgainst(String version, String addr, byte[] answer, String... extra) throws Exception {
        try (ServerSocket fake = new ServerSocket(0, 1, InetAddress.getByName("127.0.1.80"))) {
            fake.setSoTimeout(TIMEOUT);
            CompletableFuture<Object[]> peer = CompletableFuture.supplyAsync(() -> {
                try (Socket s = fake.accept()) {
                    Peer p = Peer.of(s);
                    serverPreamble(p, version);
                    byte[] sent = answer == null ? null : p.read(NegotiationParameters.SIZE_MLX5DV);
                    if (answer != null) {
                        p.write(answer);
                    }
                    PerftestDest keys = answer == null || answer.length == NegotiationParameters.SIZE_MLX5DV ? keyMessage(p) : null;
                    return new Object[] {sent, keys};
                } catch (Exception e) {
                    return new Object[] {null, null};
                }
            });
            String[] args = {"read-bw", "--addr", addr, "-d", "jrxe-neg-" + addr, "--timeout", "5", "-s", "65536", "-n", "100", "-p",
                String.valueOf(fake.getLocalPort())};
            String[] all = Arrays.copyOf(args, args.length + extra.length + 1);
            System.arraycopy(extra, 0, all, args.length, extra.length);
            all[all.length - 1] = "127.0.1.80";
            InProcess r = InProcess.run(all);
            Object[] seen = peer.get(30, TimeUnit.SECONDS);
            return new ClientRun(r, (byte[]) seen[0], (PerftestDest) seen[1]);
        }
    }

    @Test
    void asTheClientJrxeSendsWhatPerftestWouldAndTakesThePeersReadLimit() throws Exception {
        ClientRun run = clientAgainst("6.28", "127.0.1.81", struct(320, 4, 1, 65536, 100, 4, 0));
        ByteBuffer b = ByteBuffer.wrap(run.sent());
        assertThat(new int[] {b.getInt(0), b.getInt(4), b.getInt(8), b.getInt(12), b.getInt(16), b.getInt(20), b.getInt(24)})
                .as("RUN_REGULAR, RC, READ, BW, CMP_AND_SWAP (unset), ITERATIONS, MBS").containsExactly(0, 0, 4, 1, 0, 0, 1);
        assertThat(b.getLong(32)).as("size").isEqualTo(65536);
        assertThat(b.getLong(40)).as("iters").isEqualTo(100);
        assertThat(new int[] {b.getInt(48), b.getInt(52), b.getInt(56), b.getInt(60), b.getInt(64), b.getInt(68), b.getInt(72),
            b.getInt(76)}).as("aes_xts, qps, duration (perftest's default 5), rdma_cm, write_imm, reorder, sig, validation")
                .containsExactly(0, 1, 5, 0, 0, 0, 0, 0);
        assertThat(new String(run.sent(), 80, 5, StandardCharsets.US_ASCII)).as("fw_ver").isEqualTo("0.0.0");
        assertThat(ByteBuffer.wrap(run.sent()).order(ByteOrder.LITTLE_ENDIAN).getInt(MAX_QP_RD_ATOM)).as("rxe's max_qp_rd_atom")
                .isEqualTo(128);
        assertThat(b.getLong(80 + 64)).as("node_guid").isNotZero().isEqualTo(b.getLong(80 + 72));
        assertThat(ByteBuffer.wrap(run.sent()).order(ByteOrder.LITTLE_ENDIAN).getShort(80 + 224)).as("max_pkeys").isEqualTo((short) 64);
        assertThat(run.sent()[80 + 227]).as("phys_port_cnt").isEqualTo((byte) 1);
        assertThat(b.getLong(312)).as("mlx5dv_comp_mask: not a Mellanox device").isZero();
        assertThat(run.jrxe().out()).contains(" out_reads is greater than remote max_qp_rd_atom, using remote max_qp_rd_atom");
        assertThat(run.keys().outReads()).as("the reads the peer takes, in the key message after the negotiation").isEqualTo(4);
        assertThat(run.jrxe().status()).as("the fake stopped after the keys: %s", run.jrxe()).isEqualTo(2);
    }

    @Test
    void aSettingThatDiffersEndsTheTestAsPerftestEndsIt() throws Exception {
        ClientRun run = clientAgainst("6.28", "127.0.1.82", struct(320, 4, 1, 1024, 100, 128, 0));
        assertThat(run.jrxe().status()).isEqualTo(2);
        assertThat(run.jrxe().err().lines().toList()).hasSize(1).first().asString()
                .contains("size mismatch: local=65536, remote=1024").contains("give both sides the same options");
    }

    @Test
    void aServerBuiltWithoutMlx5dvIsNamedAndTheOptionForItWorks() throws Exception {
        ClientRun longer = clientAgainst("6.28", "127.0.1.83", struct(312, 4, 1, 65536, 100, 128, 0));
        assertThat(longer.jrxe().status()).isEqualTo(2);
        assertThat(longer.jrxe().err()).contains("answered the negotiation with 312 bytes, not 320").contains("--peer-mlx5dv no");
        try (ServerSocket fake = new ServerSocket(0, 1, InetAddress.getByName("127.0.1.80"))) {
            fake.setSoTimeout(TIMEOUT);
            CompletableFuture<PerftestDest> peer = CompletableFuture.supplyAsync(() -> {
                try (Socket s = fake.accept()) {
                    Peer p = Peer.of(s);
                    serverPreamble(p, "6.28");
                    p.read(NegotiationParameters.SIZE);
                    p.write(struct(312, 4, 1, 65536, 100, 128, 0));
                    return keyMessage(p);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            InProcess r = InProcess.run("read-bw", "--addr", "127.0.1.84", "-d", "jrxe-neg-312", "--timeout", "5", "-n", "100", "-p",
                    String.valueOf(fake.getLocalPort()), "--peer-mlx5dv", "no", "127.0.1.80");
            assertThat(peer.get(30, TimeUnit.SECONDS).outReads()).as("jrxe sent 312 bytes: its keys came next").isEqualTo(128);
            assertThat(r.status()).isEqualTo(2);
        }
    }

    @Test
    void perftest629NegotiatesOnlyWithAPeerThatSays628OrLater() throws Exception {
        // jrxe says 6.10: perftest 6.29 goes straight on to the keys after the MTU.
        ClientRun quiet = clientAgainst("6.29", "127.0.1.85", null);
        assertThat(quiet.keys()).as("the key message right after the MTU").isNotNull();
        // Saying 6.29, jrxe negotiates with it, and 6.29's data_validation counts.
        try (ServerSocket fake = new ServerSocket(0, 1, InetAddress.getByName("127.0.1.80"))) {
            fake.setSoTimeout(TIMEOUT);
            CompletableFuture<byte[]> peer = CompletableFuture.supplyAsync(() -> {
                try (Socket s = fake.accept()) {
                    Peer p = Peer.of(s);
                    serverPreamble(p, "6.29", "6.29");
                    byte[] sent = p.read(NegotiationParameters.SIZE_MLX5DV);
                    p.write(struct(320, 4, 1, 65536, 100, 128, 1));
                    return sent;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            InProcess r = InProcess.run("read-bw", "--addr", "127.0.1.86", "-d", "jrxe-neg-629", "--timeout", "5", "-n", "100", "-p",
                    String.valueOf(fake.getLocalPort()), "--announce-version", "6.29", "127.0.1.80");
            assertThat(peer.get(30, TimeUnit.SECONDS)).hasSize(320);
            assertThat(r.status()).isEqualTo(2);
            assertThat(r.err()).contains("data_validation mismatch: local=OFF, remote=ON");
        }
    }

    /**
     * jrxe as the server answers with the length its client sent: a perftest built with mlx5dv sends 320 bytes, one
     * without 312; either way the client's key message comes next, and jrxe's answer to it.
     */
    @ParameterizedTest(name = "a client that sends {0} bytes")
    @ValueSource(ints = {NegotiationParameters.SIZE_MLX5DV, NegotiationParameters.SIZE})
    void asTheServerJrxeAnswersWithTheLengthItsClientSent(int length) throws Exception {
        int port = 19460 + length % 10;
        CompletableFuture<InProcess> server = CompletableFuture.supplyAsync(() -> InProcess.run("write-bw", "--addr", "127.0.1.87",
                "-d", "jrxe-neg-srv" + length, "--timeout", "5", "--accept-timeout", "20", "-s", "4096", "-n", "200", "-p",
                String.valueOf(port)), Thread::startVirtualThread);
        try (OobSocket s = OobSocket.connect("127.0.1.87", port, TIMEOUT)) {
            s.write(version("6.28"), "version");
            assertThat(s.readExactly(16, "version")).isEqualTo(version("6.10"));
            s.write(ByteBuffer.allocate(4).putInt(4096).array(), "page");
            s.readExactly(4, "page");
            s.write(ByteBuffer.allocate(4).putInt(64).array(), "cache line");
            s.readExactly(4, "cache line");
            s.write(new byte[] {'3', 0}, "mtu");
            s.readExactly(2, "mtu");
            s.write(struct(length, 2, 1, 4096, 200, 128, 0), "negotiation");
            ByteBuffer answer = ByteBuffer.wrap(s.readExactly(length, "negotiation"));
            assertThat(answer.getInt(8)).as("WRITE").isEqualTo(2);
            assertThat(answer.getLong(32)).isEqualTo(4096);
            assertThat(answer.getLong(40)).isEqualTo(200);
            s.write(new PerftestDest(0, 1, 0x55, 0x10203, 0x77, 0x4000, PerftestConnectionTest.GID, 0).toWire(), "keys");
            PerftestDest theirs = PerftestDest.parse(s.readExactly(PerftestDest.MESSAGE_SIZE_GID, "keys"), true);
            assertThat(theirs.qpn()).as("jrxe's QP, in a key message right after the negotiation").isPositive();
        }
        assertThat(server.get(30, TimeUnit.SECONDS).status()).isEqualTo(2);
    }

    @Test
    void theRuleOfWhoNegotiates() {
        assertThat(negotiates("6.28", "6.10")).as("6.28 negotiates with everyone").isTrue();
        assertThat(negotiates("6.29", "6.10")).as("6.29 skips a peer older than 6.28").isFalse();
        assertThat(negotiates("6.29", "6.28")).isTrue();
        assertThat(negotiates("6.27", "6.29")).as("before 6.28 there is no negotiation").isFalse();
        assertThat(negotiates("6.10", "6.10")).isFalse();
    }

    private static boolean negotiates(String peer, String announced) {
        try (ServerSocket listening = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Void> fake = CompletableFuture.runAsync(() -> {
                try (Socket s = listening.accept()) {
                    Peer p = Peer.of(s);
                    p.read(16);
                    p.write(version(peer));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            try (PerftestConnection c = new PerftestConnection(OobSocket.connect("127.0.0.1", listening.getLocalPort(), TIMEOUT), true,
                    announced)) {
                c.exchangeVersions();
                fake.get(10, TimeUnit.SECONDS);
                return c.negotiates();
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
