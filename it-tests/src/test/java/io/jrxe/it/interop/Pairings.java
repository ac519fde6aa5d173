package io.jrxe.it.interop;

import org.junit.jupiter.api.Named;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One jrxe tool paired with one real program in the lab's guest, either side serving, and the
 * checks every such pairing shares: both exit 0, both print their result lines, each names the
 * other's GID. The out-of-band TCP exchange always runs over IPv4 (the real servers listen on
 * 0.0.0.0 only), whichever GIDs RoCE runs between.
 */
final class Pairings {
    static final Duration RUN_LIMIT = Duration.ofSeconds(120);
    /**
     * perftest's -u for the guest's bandwidth tests: an ACK timeout of 4.096 us x 2^18, about 1 s,
     * instead of perftest's 67 ms (2^14). Under TCG the guest stalls past 67 ms often enough that
     * rxe retransmits with nothing lost (hw_counters' completer_retry_err counted 10 in 7 runs of
     * 200 64 KiB sends, none with -u 18). Such a retry can go wrong in rxe itself: a duplicate ACK
     * that reaches the completer while it is resending the oldest message moves its PSN past that
     * message without completing it, and the next retry sends one empty packet for it and shifts
     * the following message by one PSN, 65 packets for 64 (seen in our captures of 6.1), which
     * the responder, jrxe or rxe, refuses as too long.
     */
    static final String GUEST_ACK_TIMEOUT = "-u 18";
    /**
     * The same ACK timeout for jrxe's side, and for the same reason: a guest stalled past eight of jrxe's 67 ms timeouts
     * in a row (retry_cnt 7) ended a jrxe client's send-bw and a lossy pingpong with RETRY_EXC_ERR mid-run, with rxe0
     * alive and nothing wrong on the wire.
     */
    static final String JRXE_ACK_TIMEOUT = "18";
    private static final Pattern ITERS = Pattern.compile("(\\d+) iters in [\\d.]+ seconds");

    private Pairings() {
    }

    /** Which side is the server; the other connects to it. */
    enum Server { JRXE, KERNEL }

    /** The RoCE addresses of a pairing: jrxe's and rxe0's GIDs, as the GID tables list them. */
    record Gids(String jrxe, String guest) {
        static final Gids IPV6 = new Gids(Lab.HOST6, Lab.GUEST6);
        static final Gids IPV4 = new Gids("::ffff:" + Lab.HOST4, "::ffff:" + Lab.GUEST4);

        /** jrxe's --addr for these GIDs. */
        String jrxeAddr() {
            return jrxe.startsWith("::ffff:") ? jrxe.substring("::ffff:".length()) : jrxe;
        }

        /** Both families, named for test display names. */
        static Stream<Named<Gids>> both() {
            return Stream.of(Named.of("IPv6", IPV6), Named.of("IPv4", IPV4));
        }

        /** rxe0's GID index for these GIDs. */
        int guestIndex(Lab lab) {
            return jrxe.startsWith("::ffff:") ? lab.guestGid4() : lab.guestGid6();
        }
    }

    /** What the two programs printed and how they ended. */
    record Pair(Job.Result jrxe, Job.Result kernel) {
    }

    static Pair pair(Lab lab, Server server, int port, String guestCommand, String... jrxeArgs) throws Exception {
        return server == Server.JRXE ? jrxeServes(lab, port, guestCommand, jrxeArgs) : guestServes(lab, port, guestCommand, jrxeArgs);
    }

    /** jrxe serves in the namespace; the real program in the guest is its client. */
    static Pair jrxeServes(Lab lab, int port, String guestCommand, String... jrxeArgs) throws Exception {
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
    static Pair guestServes(Lab lab, int port, String guestCommand, String... jrxeArgs) throws Exception {
        try (Job server = lab.guest(guestCommand + " (server)", guestCommand + " -p " + port, 90)) {
            lab.awaitGuestListening(server, port);
            Job.Result jrxe;
            try (Job client = lab.jrxe("jrxe " + jrxeArgs[0] + " client", concat(jrxeArgs, "-p", String.valueOf(port), Lab.GUEST4))) {
                jrxe = client.await(RUN_LIMIT);
            }
            return new Pair(jrxe, server.await(RUN_LIMIT));
        }
    }

    /**
     * One of perftest's bandwidth tests ({@code test}: write, read, send or atomic) paired with jrxe's:
     * 64 KiB messages (8-byte atomics), {@code iterations} of them, checked by {@link #assertBandwidth}.
     * {@code guestOptions} and {@code jrxeOptions} are added to each side's command line.
     */
    static Pair bandwidth(Lab lab, String test, Server server, int port, Gids gids, int iterations, String guestOptions,
                          String... jrxeOptions) throws Exception {
        boolean atomic = test.equals("atomic");
        String size = atomic ? "8" : "65536";
        String guest = "ib_" + test + "_bw -d rxe0 -x " + gids.guestIndex(lab) + " -F -n " + iterations + (atomic ? "" : " -s " + size)
                + " " + GUEST_ACK_TIMEOUT + (guestOptions.isEmpty() ? "" : " " + guestOptions);
        String[] jrxe = concat(new String[] {test + "-bw", "--addr", gids.jrxeAddr(), "-F", "-n", String.valueOf(iterations),
                "-u", JRXE_ACK_TIMEOUT}, atomic ? new String[0] : new String[] {"-s", size});
        Pair p = pair(lab, server, port, guest, concat(jrxe, jrxeOptions));
        // perftest's server prints the numbers its client reports, except ib_send_bw's, which measures too.
        assertBandwidth(p, size, iterations, server == Server.KERNEL || test.equals("send"), gids);
        return p;
    }

    static void assertBothSucceeded(Pair p) {
        assertThat(p.kernel().exitCode()).as("%s%n%s", p.kernel(), p.jrxe()).isZero();
        assertThat(p.jrxe().exitCode()).as("%s%n%s", p.jrxe(), p.kernel()).isZero();
    }

    /** ibv_rc_pingpong / ibv_ud_pingpong and jrxe's: all iterations done, each saw the other's GID, no data check failed. */
    static void assertPingpong(Pair p, int iterations, Gids gids) {
        assertBothSucceeded(p);
        assertThat(iterationsDone(p.kernel())).as("%s", p.kernel()).isEqualTo(iterations);
        assertThat(iterationsDone(p.jrxe())).as("%s", p.jrxe()).isEqualTo(iterations);
        assertThat(p.kernel().output()).as("rxe0 saw jrxe's GID").containsPattern("remote address: .*GID " + Pattern.quote(gids.jrxe()) + "\\b")
                .doesNotContainIgnoringCase("invalid data");
        assertThat(p.jrxe().output()).as("jrxe saw rxe0's GID").containsPattern("remote address: .*GID " + Pattern.quote(gids.guest()) + "\\b");
    }

    private static int iterationsDone(Job.Result r) {
        Matcher m = ITERS.matcher(r.output());
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    /**
     * perftest's bandwidth tests and jrxe's: a result row for {@code bytes} x {@code iterations} on
     * both sides, jrxe's average positive when it measured, and each side's remote GID the other's.
     */
    static void assertBandwidth(Pair p, String bytes, int iterations, boolean jrxeMeasured, Gids gids) {
        assertBothSucceeded(p);
        Pattern row = Pattern.compile("(?m)^\\s*" + bytes + "\\s+" + iterations + "\\s+([\\d.]+)\\s+([\\d.]+)\\s+([\\d.]+)\\s*$");
        for (Job.Result r : List.of(p.kernel(), p.jrxe())) {
            assertThat(row.matcher(r.output()).find()).as("a result row for %s bytes x %d in %s", bytes, iterations, r).isTrue();
        }
        // Only numbers jrxe measured: perftest in the guest measures with the TSC, which under TCG on
        // a busy host can fail its calibration ("Correlation coefficient r^2 < 0.9") and print 0.00.
        // The message rate, not the bandwidth: a few hundred 8-byte atomics a second print 0.00 MiB/s.
        if (jrxeMeasured) {
            Matcher m = row.matcher(p.jrxe().output());
            assertThat(m.find() && Double.parseDouble(m.group(3)) > 0).as("jrxe's message rate in %s", p.jrxe()).isTrue();
        }
        assertSawEachOthersGid(p, gids);
    }

    /** perftest's address block: each side's "remote address" is followed by the other side's GID. */
    static void assertSawEachOthersGid(Pair p, Gids gids) {
        assertThat(p.kernel().output()).as("rxe0's remote GID is jrxe's").containsPattern(remoteGid(gids.jrxe()));
        assertThat(p.jrxe().output()).as("jrxe's remote GID is rxe0's").containsPattern(remoteGid(gids.guest()));
    }

    private static Pattern remoteGid(String gid) {
        return Pattern.compile("remote address: [^\\n]*\\n\\s*GID: " + Pattern.quote(perftestGid(gid)) + "\\s");
    }

    /** A GID as perftest prints it: its 16 bytes in decimal, two digits at least, separated by colons. */
    static String perftestGid(String address) {
        byte[] raw;
        try {
            raw = InetAddress.getByName(address).getAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(address, e);
        }
        byte[] gid = new byte[16];
        if (raw.length == 4) {   // an IPv4-mapped GID, ::ffff:a.b.c.d
            gid[10] = (byte) 0xff;
            gid[11] = (byte) 0xff;
            System.arraycopy(raw, 0, gid, 12, 4);
        } else {
            gid = raw;
        }
        byte[] bytes = gid;
        return IntStream.range(0, 16).mapToObj(i -> String.format("%02d", bytes[i] & 0xff))
                .collect(Collectors.joining(":"));
    }

    static String[] concat(String[] first, String... more) {
        String[] all = Arrays.copyOf(first, first.length + more.length);
        System.arraycopy(more, 0, all, first.length, more.length);
        return all;
    }
}
