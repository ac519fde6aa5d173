package io.jrxe.tools.baseline;

import io.jrxe.tools.UserError;
import io.jrxe.tools.common.BadOptionAnswer;
import io.jrxe.tools.common.InProcess;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** jrxe udp-baseline: its lines, the busy-polled exchange floor, the rates with no network stack, and its refusals. */
class UdpBaselineCommandTest {
    private static final Pattern FLOOR = Pattern.compile(
            "busy-polled RC exchange, (\\d+)-byte message \\((\\d+) x (\\d+) B, ACK 20 B\\), 300 iterations: p50 ([0-9.]+) us, p99 ([0-9.]+) us, p99.9 ([0-9.]+) us");
    private static final Pattern PAUSES = Pattern.compile("machine pauses, (\\d+) threads spinning 0\\.2 s with no socket: "
            + "per thread-second >2 us (\\d+), >5 us (\\d+), >10 us (\\d+), >20 us (\\d+), >50 us (\\d+), >100 us (\\d+), >1 ms (\\d+); "
            + "([0-9.]+)% of the time lost, the longest ([0-9.]+) ms");
    private static final Pattern COPY = Pattern.compile(
            "memory copy, (64 KiB blocks between two 64 MiB buffers|one 64 KiB block to another \\(cache-hot\\)), one thread:  (\\d+) MiB/s");
    private static final Pattern ICRC = Pattern.compile("ICRC (on send, IPv4, (\\d+)-byte packets \\((\\d+)-byte payload\\)"
            + "|identification solve on receive, IPv4, (\\d+)-byte packets), one thread:  (\\d+) MiB/s, ([0-9.]+) M packets/s");

    @Test
    void printsBandwidthRoundTripAndWithTheOptionTheExchangeFloor() {
        InProcess r = InProcess.run("udp-baseline", "--addr-a", "127.0.1.90", "--addr-b", "127.0.1.91", "--port", "24791",
                "--seconds", "0.2", "-n", "300", "--exchange-floor");
        assertThat(r.status()).as(r.toString()).isZero();
        assertThat(r.lines()).anyMatch(l -> l.startsWith("bandwidth, 4096-byte datagrams:"));
        assertThat(r.lines()).anyMatch(l -> l.startsWith("ping-pong round trip, 64 bytes, 300 iterations: p50 "));
        int floors = 0;
        for (String line : r.lines()) {
            Matcher m = FLOOR.matcher(line);
            if (m.matches()) {
                floors++;
                // a 64-byte SEND is one packet of BTH + payload + ICRC; 4096 bytes at MTU 1024 are four of 1040
                assertThat(m.group(1) + "/" + m.group(2) + "/" + m.group(3)).isIn("64/1/80", "4096/4/1040");
                double p50 = Double.parseDouble(m.group(4));
                assertThat(p50).isPositive().isLessThanOrEqualTo(Double.parseDouble(m.group(5)));
                assertThat(Double.parseDouble(m.group(5))).isLessThanOrEqualTo(Double.parseDouble(m.group(6)));
            }
        }
        assertThat(floors).as(r.toString()).isEqualTo(2);
        assertThat(r.out()).doesNotContain("machine pauses");
        assertCopyAndCrcLines(r);
    }

    /** Two copy lines, then the ICRC on send and the solve on receive, each for packets of 1040 and 4112 bytes. */
    private static void assertCopyAndCrcLines(InProcess r) {
        List<String> copies = new ArrayList<>();
        for (String line : r.lines()) {
            Matcher m = COPY.matcher(line);
            if (m.matches()) {
                copies.add(m.group(1));
                assertThat(Long.parseLong(m.group(2))).as(line).isPositive();
            }
        }
        assertThat(copies).as(r.toString()).containsExactly("64 KiB blocks between two 64 MiB buffers",
                "one 64 KiB block to another (cache-hot)");
        List<String> icrcs = new ArrayList<>();
        for (String line : r.lines()) {
            Matcher m = ICRC.matcher(line);
            if (m.matches()) {
                if (m.group(2) != null) { // BTH + payload + ICRC
                    assertThat(Integer.parseInt(m.group(2))).as(line).isEqualTo(Integer.parseInt(m.group(3)) + 16);
                }
                icrcs.add((m.group(2) != null ? "send " + m.group(2) : "solve " + m.group(4)));
                assertThat(Long.parseLong(m.group(5))).as(line).isPositive();
                assertThat(Double.parseDouble(m.group(6))).as(line).isPositive();
            }
        }
        assertThat(icrcs).as(r.toString()).containsExactly("send 1040", "send 4112", "solve 1040", "solve 4112");
    }

    @Test
    void withPausesItPrintsTheMachinesPauseRatesLongestFirst() {
        InProcess r = InProcess.run("udp-baseline", "--addr-a", "127.0.1.96", "--addr-b", "127.0.1.97", "--port", "24803",
                "--seconds", "0.2", "-n", "50", "--pauses", "--no-copy-crc");
        assertThat(r.status()).as(r.toString()).isZero();
        Matcher m = r.lines().stream().map(PAUSES::matcher).filter(Matcher::matches).findFirst()
                .orElseThrow(() -> new AssertionError("no pause line in " + r));
        assertThat(Integer.parseInt(m.group(1))).isEqualTo(Math.min(64, Runtime.getRuntime().availableProcessors()));
        for (int i = 2; i < 8; i++) { // a pause above a threshold is above every smaller one too
            assertThat(Long.parseLong(m.group(i))).isGreaterThanOrEqualTo(Long.parseLong(m.group(i + 1)));
        }
        assertThat(Double.parseDouble(m.group(9))).isBetween(0.0, 100.0);
    }

    @Test
    void aPauseCountsAtEveryThresholdItExceedsAndShortGapsNotAtAll() {
        PauseMeter.Spinner s = new PauseMeter.Spinner(1);
        long us = 1_000;
        for (long gap : new long[] {40, 2 * us, 3 * us, 7 * us, 25 * us, 2_000 * us}) {
            s.count(gap);
        }
        // thresholds 2, 5, 10, 20, 50, 100 us and 1 ms; 2 us itself is not a pause (the limit is "above 2 us")
        assertThat(s.above).containsExactly(4, 3, 2, 2, 1, 1, 1);
        assertThat(s.paused).isEqualTo(3 * us + 7 * us + 25 * us + 2_000 * us);
        assertThat(s.longest).isEqualTo(2_000 * us);
    }

    @Test
    void thePauseMeterSpinsOnEveryThreadForItsTime() throws Exception {
        long start = System.nanoTime();
        PauseMeter.Result r = new PauseMeter(2, 30_000_000L).run();
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(30_000_000L);
        assertThat(r.threads()).isEqualTo(2);
        assertThat(r.seconds()).isEqualTo(0.03);
        assertThat(r.above()).hasSize(PauseMeter.THRESHOLD_MICROS.length);
        assertThat(r.pausedShare()).isBetween(0.0, 1.0);
        assertThat(r.longestNanos()).isLessThanOrEqualTo(r.pausedNanos());
    }

    @Test
    void withoutTheOptionThereIsNoFloorAndWithNoCopyCrcNoRateWithoutANetworkStack() {
        InProcess r = InProcess.run("udp-baseline", "--addr-a", "127.0.72.1", "--addr-b", "127.0.72.2", "--port", "24795",
                "--seconds", "0.1", "-n", "50", "--no-copy-crc");
        assertThat(r.status()).as(r.toString()).isZero();
        assertThat(r.out()).doesNotContain("busy-polled").doesNotContain("memory copy").doesNotContain("ICRC");
        assertThat(r.lines()).anyMatch(l -> l.startsWith("ping-pong round trip, 64 bytes, 50 iterations: p50 "));
    }

    @Test
    void theExchangeTimesEveryIterationAndSortsThem() throws Exception {
        BusyPolledExchange x = new BusyPolledExchange(new InetSocketAddress("127.0.1.94", 24799),
                new InetSocketAddress("127.0.1.95", 24799), 4, 1040);
        long[] rtt = x.run(20, 200);
        assertThat(rtt).hasSize(200).isSorted();
        assertThat(rtt[0]).isPositive();
    }

    @Test
    void aTakenPortIsASentenceNotAStackTrace() throws Exception {
        InetSocketAddress taken = new InetSocketAddress("127.0.1.96", 24801);
        try (DatagramChannel holder = DatagramChannel.open(StandardProtocolFamily.INET)) {
            holder.bind(taken);
            BusyPolledExchange x = new BusyPolledExchange(taken, new InetSocketAddress("127.0.1.97", 24801), 1, 80);
            assertThatThrownBy(() -> x.run(1, 1)).isInstanceOf(UserError.class)
                    .hasMessageStartingWith("cannot bind 127.0.1.96:24801: ");
        }
    }

    @Test
    void refusesAnIterationCountOutOfRange() {
        BadOptionAnswer.check(InProcess.run("udp-baseline", "-n", "0"), "udp-baseline", "--iters 0");
    }
}
