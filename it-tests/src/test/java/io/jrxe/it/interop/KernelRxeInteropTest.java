package io.jrxe.it.interop;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * jrxe against the kernel's Soft-RoCE (rdma_rxe in the lab's guest) with the real rdma-core and
 * perftest programs, each pairing both ways: jrxe as the server and as the client. RoCE runs
 * between the IPv6 GIDs fd77::1 (jrxe) and fd77::2 (rxe0); the out-of-band TCP exchange runs
 * over IPv4, because the real servers listen on the first address getaddrinfo gives (0.0.0.0).
 * Every pairing checks both programs' exit status, their result lines and the peer each saw.
 * perftest: ib_write_bw, ib_read_bw, ib_send_bw and ib_atomic_bw against jrxe's write-bw, read-bw,
 * send-bw and atomic-bw.
 */
@ExtendWith(LabExtension.class)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class KernelRxeInteropTest {
    private static final Duration RUN_LIMIT = Duration.ofSeconds(120);
    private static final Pattern ITERS = Pattern.compile("(\\d+) iters in [\\d.]+ seconds");
    private static final String JRXE_GID_IN_PERFTEST = "253:119:00:00:00:00:00:00:00:00:00:00:00:00:00:01";
    private static final String GUEST_GID_IN_PERFTEST = "253:119:00:00:00:00:00:00:00:00:00:00:00:00:00:02";

    /** Which side is the server; the other connects to it. */
    enum Server { JRXE, KERNEL }

    @ParameterizedTest(name = "{0} serves")
    @EnumSource(Server.class)
    void rcPingpong(Server server, Lab lab) throws Exception {
        Pair p = pair(lab, server, 18601 + server.ordinal(), "ibv_rc_pingpong -d rxe0 -g " + lab.guestGid6() + " -n 50 -c",
                "pingpong", "--addr", Lab.HOST6, "-n", "50", "-c");
        assertPingpong(p, 50);
    }

    @ParameterizedTest(name = "{0} serves")
    @EnumSource(Server.class)
    void udPingpong(Server server, Lab lab) throws Exception {
        Pair p = pair(lab, server, 18603 + server.ordinal(), "ibv_ud_pingpong -d rxe0 -g " + lab.guestGid6() + " -s 1024 -n 50 -c",
                "ud-pingpong", "--addr", Lab.HOST6, "-s", "1024", "-n", "50", "-c");
        assertPingpong(p, 50);
    }

    /** perftest's bandwidth tests: WRITE, READ and SEND of 64 KiB messages, 8-byte FETCH_AND_ADDs. */
    static Stream<Arguments> bandwidthTests() {
        return Stream.of("write", "read", "send", "atomic")
                .flatMap(test -> Stream.of(Server.values()).map(server -> Arguments.of(test, server)));
    }

    @ParameterizedTest(name = "ib_{0}_bw, {1} serves")
    @MethodSource("bandwidthTests")
    void bandwidth(String test, Server server, Lab lab) throws Exception {
        int iterations = 200;
        String size = test.equals("atomic") ? "8" : "65536";
        String sizeOption = test.equals("atomic") ? "" : " -s " + size;
        int port = 18610 + 2 * List.of("write", "read", "send", "atomic").indexOf(test) + server.ordinal();
        Pair p = pair(lab, server, port, "ib_" + test + "_bw -d rxe0 -x " + lab.guestGid6() + " -F -n " + iterations + sizeOption,
                concat(new String[] {test + "-bw", "--addr", Lab.HOST6, "-F", "-n", String.valueOf(iterations)},
                        sizeOption.isEmpty() ? new String[0] : new String[] {"-s", size}));
        // perftest's server prints the numbers its client reports, except ib_send_bw's, which measures too.
        assertBandwidth(p, size, iterations, server == Server.KERNEL || test.equals("send"));
    }

    /**
     * RC under loss: netem drops 3% of what the guest sends (rxe0's data when it requests, its
     * ACKs when jrxe does), so each side's retransmission and duplicate handling meets the other's.
     * The host's kernel here has no netem, so the way from jrxe to the guest is not lossy.
     */
    @ParameterizedTest(name = "{0} serves")
    @EnumSource(Server.class)
    void rcPingpongWhenTheGuestLoses3PercentOfItsPackets(Server server, Lab lab) throws Exception {
        Job.Result netem = lab.guestNow("tc qdisc replace dev eth0 root netem loss 3%", 20);
        assertThat(netem.exitCode()).as("%s", netem).isZero();
        try {
            Pair p = pair(lab, server, 18620 + server.ordinal(), "ibv_rc_pingpong -d rxe0 -g " + lab.guestGid6() + " -n 100 -c",
                    "pingpong", "--addr", Lab.HOST6, "-n", "100", "-c");
            assertPingpong(p, 100);
            Job.Result stats = lab.guestNow("tc -s qdisc show dev eth0", 20);
            Matcher dropped = Pattern.compile("dropped (\\d+)").matcher(stats.output());
            assertThat(dropped.find() && Integer.parseInt(dropped.group(1)) > 0).as("netem dropped packets: %s", stats).isTrue();
        } finally {
            lab.guestNow("tc qdisc del dev eth0 root", 20);
        }
    }

    /**
     * RC over IPv4 GIDs (::ffff:10.77.0.x): jrxe sends through its raw socket with an IP
     * identification it chose and the ICRC computed over it, and solves for rxe's on receipt.
     */
    @ParameterizedTest(name = "{0} serves")
    @EnumSource(Server.class)
    void rcPingpongOverIpv4(Server server, Lab lab) throws Exception {
        Pair p = pair(lab, server, 18630 + server.ordinal(), "ibv_rc_pingpong -d rxe0 -g " + lab.guestGid4() + " -n 50 -c",
                "pingpong", "--addr", Lab.HOST4, "-n", "50", "-c");
        assertPingpong(p, 50, "::ffff:" + Lab.HOST4, "::ffff:" + Lab.GUEST4);
    }

    /**
     * UD over IPv4 with jrxe's capture checked: every packet in it, the ones rxe sent (with the
     * identification jrxe solved for) and the ones jrxe sent (with the one it chose), has a
     * valid ICRC, and rxe0 completed the exchange, so it accepted jrxe's.
     */
    @Test
    void udPingpongOverIpv4WithEveryIcrcValid(Lab lab, @TempDir Path dir) throws Exception {
        int port = 18607;
        Path capture = dir.resolve("ipv4.pcapng");
        Pair p = jrxeServes(lab, port, "ibv_ud_pingpong -d rxe0 -g " + lab.guestGid4() + " -s 1024 -n 20 -c",
                "ud-pingpong", "--addr", Lab.HOST4, "-s", "1024", "-n", "20", "-c", "--capture", capture.toString());
        assertPingpong(p, 20, "::ffff:" + Lab.HOST4, "::ffff:" + Lab.GUEST4);
        Job.Result decoded = Lab.jrxeHere("decode", "--verify-icrc", "--json", capture.toString());
        assertThat(decoded.exitCode()).as("every ICRC in jrxe's capture is valid: %s", decoded).isZero();
        for (String source : List.of(Lab.GUEST4, Lab.HOST4)) {
            assertThat(decoded.output().lines()
                    .filter(l -> l.contains("\"src\":\"" + source + "\"") && l.contains("\"opcode_name\":\"UD SEND_ONLY\"")))
                    .as("UD SENDs from %s in jrxe's capture: %s", source, decoded.output()).hasSizeGreaterThanOrEqualTo(20)
                    .allMatch(l -> l.contains("\"icrc_ok\":true"));
        }
    }

    /**
     * The native provider (libibverbs through java.lang.foreign) driving the guest's rxe0: its
     * smoke run, in the guest with the host's JDK, passes every step (a verb the kernel's driver
     * refuses with EOPNOTSUPP, as Debian's 6.1 rdma_rxe does ibv_rereg_mr, is a passed step that
     * says so).
     */
    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void nativeProviderDrivesTheGuestsRxe0(Lab lab) throws Exception {
        Job.Result smoke = lab.guestNow("test -x /opt/jdk/bin/java && cd /opt/jrxe && /opt/jdk/bin/java " + Lab.GUEST_JIT
                + " --enable-native-access=ALL-UNNAMED"
                + " -cp 'tools/target/jrxe-tools.jar:tools/target/lib/*' io.jrxe.verbs.nativ.NativeSmoke rxe0", 360);
        assertThat(smoke.exitCode()).as("%s", smoke).isZero();
        assertThat(smoke.output()).as("%s", smoke).containsPattern("steps: \\d+ ok, 0 failed").doesNotContain("FAIL");
        assertThat(smoke.output().lines().filter(l -> l.startsWith("OK")).count()).as("%s", smoke).isGreaterThanOrEqualTo(30);
    }

    private record Pair(Job.Result jrxe, Job.Result kernel) {
    }

    private static Pair pair(Lab lab, Server server, int port, String guestCommand, String... jrxeArgs) throws Exception {
        return server == Server.JRXE ? jrxeServes(lab, port, guestCommand, jrxeArgs) : guestServes(lab, port, guestCommand, jrxeArgs);
    }

    /** jrxe serves in the namespace; the real program in the guest is its client. */
    private static Pair jrxeServes(Lab lab, int port, String guestCommand, String... jrxeArgs) throws Exception {
        String[] args = concat(jrxeArgs, "-p", String.valueOf(port), "--accept-timeout", "90");
        try (Job server = lab.jrxe("jrxe " + jrxeArgs[0] + " server", args)) {
            lab.awaitJrxeListening(server, port);
            Job.Result kernel = lab.guest(guestCommand + " (client)", guestCommand + " -p " + port + " " + Lab.HOST4, 90)
                    .await(RUN_LIMIT);
            Job.Result jrxe = server.await(RUN_LIMIT);
            return new Pair(jrxe, kernel);
        }
    }

    /** The real program serves in the guest; jrxe is its client. */
    private static Pair guestServes(Lab lab, int port, String guestCommand, String... jrxeArgs) throws Exception {
        try (Job server = lab.guest(guestCommand + " (server)", guestCommand + " -p " + port, 90)) {
            lab.awaitGuestListening(server, port);
            Job.Result jrxe;
            try (Job client = lab.jrxe("jrxe " + jrxeArgs[0] + " client", concat(jrxeArgs, "-p", String.valueOf(port), Lab.GUEST4))) {
                jrxe = client.await(RUN_LIMIT);
            }
            return new Pair(jrxe, server.await(RUN_LIMIT));
        }
    }

    private static void assertPingpong(Pair p, int iterations) {
        assertPingpong(p, iterations, Lab.HOST6, Lab.GUEST6);
    }

    private static void assertPingpong(Pair p, int iterations, String jrxeGid, String guestGid) {
        assertThat(p.kernel().exitCode()).as("%s%n%s", p.kernel(), p.jrxe()).isZero();
        assertThat(p.jrxe().exitCode()).as("%s%n%s", p.jrxe(), p.kernel()).isZero();
        assertThat(iterationsDone(p.kernel())).as("%s", p.kernel()).isEqualTo(iterations);
        assertThat(iterationsDone(p.jrxe())).as("%s", p.jrxe()).isEqualTo(iterations);
        assertThat(p.kernel().output()).as("rxe0 saw jrxe's GID").containsPattern("remote address: .*GID " + Pattern.quote(jrxeGid) + "\\b")
                .doesNotContainIgnoringCase("invalid data");
        assertThat(p.jrxe().output()).as("jrxe saw rxe0's GID").containsPattern("remote address: .*GID " + Pattern.quote(guestGid) + "\\b");
    }

    private static int iterationsDone(Job.Result r) {
        Matcher m = ITERS.matcher(r.output());
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    private static void assertBandwidth(Pair p, String bytes, int iterations, boolean jrxeMeasured) {
        assertThat(p.kernel().exitCode()).as("%s%n%s", p.kernel(), p.jrxe()).isZero();
        assertThat(p.jrxe().exitCode()).as("%s%n%s", p.jrxe(), p.kernel()).isZero();
        Pattern row = Pattern.compile("(?m)^\\s*" + bytes + "\\s+" + iterations + "\\s+([\\d.]+)\\s+([\\d.]+)\\s+[\\d.]+\\s*$");
        for (Job.Result r : List.of(p.kernel(), p.jrxe())) {
            assertThat(row.matcher(r.output()).find()).as("a result row for %s bytes x %d in %s", bytes, iterations, r).isTrue();
        }
        // Only numbers jrxe measured: perftest in the guest measures with the TSC, which under TCG on
        // a busy host can fail its calibration ("Correlation coefficient r^2 < 0.9") and print 0.00.
        if (jrxeMeasured) {
            Matcher m = row.matcher(p.jrxe().output());
            assertThat(m.find() && Double.parseDouble(m.group(2)) > 0).as("jrxe's average bandwidth in %s", p.jrxe()).isTrue();
        }
        assertThat(p.kernel().output()).as("rxe0's remote GID is jrxe's").contains("GID: " + JRXE_GID_IN_PERFTEST);
        assertThat(p.jrxe().output()).as("jrxe's remote GID is rxe0's").contains("GID: " + GUEST_GID_IN_PERFTEST);
    }

    private static String[] concat(String[] first, String... more) {
        String[] all = Arrays.copyOf(first, first.length + more.length);
        System.arraycopy(more, 0, all, first.length, more.length);
        return all;
    }
}
