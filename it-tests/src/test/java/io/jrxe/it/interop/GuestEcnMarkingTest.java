package io.jrxe.it.interop;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ECN's loop on real sockets, through a real marking queue: two jrxe NICs in network namespaces of the guest
 * ({@link GuestBottleneck}), `jrxe write-bw --ecn` from one to the other through a veth whose sender side is an htb
 * rate limit with a RED queue that marks ECN. The guest's kernel marks the packets CE; the receiving NIC reads the
 * marks and answers with CNPs; the sending NIC reads them, and under DCQCN cuts its QP's rate. The same run is made
 * with {@code --cc none} and with {@code --cc dcqcn}, each through a bottleneck of its own with fresh counters.
 *
 * <p>What is asserted is what the loop guarantees at the rates jrxe reaches under TCG (docs/congestion.md, "On real
 * sockets"): both runs move data, RED marks, the receiver counts CE marks and sends CNPs, the sender receives them,
 * and DCQCN acts on them (rate cuts) where {@code none} ignores them. That DCQCN leaves RED fewer drops is not: its
 * floor (100 Mbit/s) is far above what jrxe sends in a guest under TCG, so its cuts never bring a QP below the
 * bottleneck there.
 *
 * <p>It takes about ten minutes, most of it four JVMs starting in the guest under TCG, which the build's time cannot
 * afford: it runs when asked, with {@code -Djrxe.lab.slow=true}.
 */
@ExtendWith(LabExtension.class)
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class GuestEcnMarkingTest {
    /** Below what jrxe sends under TCG (about 10 Mbit/s of packets, resends included), so that a queue builds. */
    private static final int BOTTLENECK_MBIT = 4;
    private static final int RED_MIN_BYTES = 5_000;
    private static final int RED_MAX_BYTES = 15_000;
    private static final int RED_LIMIT_BYTES = 60_000;
    private static final int SECONDS = 15;
    private static final int PORT = 18700;
    /** A JVM in the guest under TCG takes about two minutes to start (two of them at once). */
    private static final int GUEST_LIMIT = 360;
    private static final Duration RUN_LIMIT = Duration.ofSeconds(GUEST_LIMIT + 45L);

    @BeforeAll
    static void onlyWhenAsked() {
        SlowLabTests.skipUnlessAsked("GuestEcnMarkingTest takes about ten minutes under TCG (four guest JVMs start)");
    }

    @Test
    void realMarksMakeCnpsThatDcqcnActsOn(Lab lab) throws Exception {
        Run none = run(lab, "none");
        Run dcqcn = run(lab, "dcqcn");
        for (Run r : new Run[] {none, dcqcn}) {
            assertThat(r.messages()).as("messages written with %s: %s", r.cc(), r).isPositive();
            assertThat(r.red().marked()).as("RED's marks with %s: %s", r.cc(), r).isPositive();
            assertThat(r.receiverCounter("jrxe_ecn_ce_received")).as("CE marks the receiver read with %s: %s", r.cc(), r).isPositive();
            assertThat(r.receiverCounter("jrxe_sent_cnp")).as("CNPs the receiver sent with %s: %s", r.cc(), r).isPositive();
            assertThat(r.senderCounter("jrxe_rcvd_cnp")).as("CNPs the sender received with %s: %s", r.cc(), r).isPositive();
        }
        assertThat(none.senderCounter("jrxe_cc_cnp_ignored")).as("none ignores CNPs: %s", none).isPositive();
        assertThat(none.senderCounter("jrxe_cc_rate_decreased")).as("none has no rate: %s", none).isZero();
        assertThat(dcqcn.senderCounter("jrxe_cc_cnp_acted")).as("DCQCN acts on CNPs: %s", dcqcn).isPositive();
        assertThat(dcqcn.senderCounter("jrxe_cc_rate_decreased")).as("DCQCN cut the rate: %s", dcqcn).isPositive();
        for (Run r : new Run[] {none, dcqcn}) {
            System.out.printf("interop: --cc %s: %d messages; %s; sender %s; receiver %s%n", r.cc(), r.messages(), r.red(),
                    r.counters(r.sender()), r.counters(r.receiver()));
        }
    }

    /** One write-bw run through a fresh bottleneck: the server receives in its namespace, the client sends from its own. */
    private static Run run(Lab lab, String cc) throws Exception {
        // -u 18 (an ACK timeout of about 1 s, perftest's default being 67 ms): under TCG a responder still compiling its
        // code answers so late that seven resends at 67 ms can run out (RETRY_EXC_ERR, seen with either --cc).
        String options = " --ecn --cc " + cc + " --counters -D " + SECONDS + " -u 18 -p " + PORT + " --timeout " + (GUEST_LIMIT - 60);
        try (GuestBottleneck bottleneck = GuestBottleneck.of(lab, BOTTLENECK_MBIT, RED_MIN_BYTES, RED_MAX_BYTES, RED_LIMIT_BYTES)) {
            Job.Result client;
            Job.Result server;
            // The client retries its TCP connection until the server listens (within --timeout), so both JVMs start at once.
            try (Job s = lab.guest("write-bw --cc " + cc + " (server)", GuestBottleneck.inNamespace(GuestBottleneck.RECEIVER_NETNS,
                    "sh -c 'cd /tmp && " + Lab.GUEST_JRXE + " write-bw --addr " + GuestBottleneck.RECEIVER_ADDR + options + "'"), GUEST_LIMIT);
                 Job c = lab.guest("write-bw --cc " + cc + " (client)", GuestBottleneck.inNamespace(GuestBottleneck.SENDER_NETNS,
                    "sh -c 'cd /tmp && " + Lab.GUEST_JRXE + " write-bw --addr " + GuestBottleneck.SENDER_ADDR + options + " "
                            + GuestBottleneck.RECEIVER_ADDR + "'"), GUEST_LIMIT)) {
                client = c.await(RUN_LIMIT);
                server = s.await(RUN_LIMIT);
            }
            assertThat(client.exitCode()).as("%s%n%s", client, server).isZero();
            assertThat(server.exitCode()).as("%s%n%s", server, client).isZero();
            return new Run(cc, client, server, bottleneck.counts());
        }
    }

    private record Run(String cc, Job.Result sender, Job.Result receiver, GuestBottleneck.RedCounts red) {
        private static final Pattern RESULT_ROW = Pattern.compile("(?m)^\\s*65536\\s+(\\d+)\\s+[\\d.]+\\s+[\\d.]+");

        long messages() {
            Matcher m = RESULT_ROW.matcher(sender.output());
            return m.find() ? Long.parseLong(m.group(1)) : -1;
        }

        long senderCounter(String name) {
            return counter(sender, name);
        }

        long receiverCounter(String name) {
            return counter(receiver, name);
        }

        /** The `--counters` line of {@code r}. */
        String counters(Job.Result r) {
            return r.output().lines().filter(l -> l.startsWith("counters of ")).findFirst().orElse("no counters");
        }

        /** A counter from `--counters`' line, which lists only the counters that moved: 0 when it is not there. */
        private static long counter(Job.Result r, String name) {
            Matcher m = Pattern.compile("counters of jrxe0:.* " + name + "=(\\d+)\\b").matcher(r.output());
            return m.find() ? Long.parseLong(m.group(1)) : 0;
        }
    }
}
