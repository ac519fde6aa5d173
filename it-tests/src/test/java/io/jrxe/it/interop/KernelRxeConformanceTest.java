package io.jrxe.it.interop;

import io.jrxe.tools.conformance.CaseTable;
import io.jrxe.tools.conformance.ConformanceCase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `jrxe conformance` against kernel rxe: `jrxe rc-ops --many` on the guest's rxe0 (the native provider) serves one
 * fresh QP per case; the tester runs in the lab's namespace on two addresses of its own (10.77.0.3, and 10.77.0.4 for
 * the forged sources), through the raw socket so that rxe accepts its ICRCs. The whole table runs (about two minutes
 * under TCG, after the two or three the guest's JVM takes to start): every case where rxe answers as jrxe does
 * passes, and the cases where it answers otherwise ({@link #RXE_ANSWERS}, docs/conformance.md's column "rxe's
 * answer") must fail with exactly rxe's recorded answer, so that a change on either side shows here.
 */
@ExtendWith(LabExtension.class)
@Timeout(value = 14, unit = TimeUnit.MINUTES)
class KernelRxeConformanceTest {
    private static final int PORT = 18710;
    private static final String TESTER = "10.77.0.3";
    private static final String FORGER = "10.77.0.4";
    private static final String BRIDGE = "jrxe-br0";
    private static final Duration RUN_LIMIT = Duration.ofSeconds(300);
    /** The guest's JVM under TCG: two or three minutes, more while another guest shares the host. */
    private static final Duration JVM_START_LIMIT = Duration.ofSeconds(420);

    /** What kernel rxe (6.1) answers where jrxe answers otherwise: the tester's "observed" text for the case. */
    private static final Map<String, String> RXE_ANSWERS = Map.of(
            // a duplicate on a QP that has executed nothing is acknowledged with PSN 0xffffff, not the PSN before the
            // expected one (the cases start at 0x100000)
            "PSN-08", "ACK -1048577",
            "PSN-09", "ACK -1048577",
            // a SEND ONLY longer than the path MTU is accepted
            "LEN-06", "ACK +0",
            // a SEND longer than its receive is a remote operational error
            "LEN-09", "ACK +0 / ACK +1 / NAK remote operational error +2",
            // a payload after a READ request's or an atomic's headers is ignored, the request executed
            "LEN-11", "RDMA_READ_RESPONSE_ONLY +0 8 bytes",
            "LEN-12", "ATOMIC ACK +0 orig 0x1111222233334444",
            // a READ asked again from its second PSN is answered with MIDDLE and LAST, not FIRST and LAST
            "RPL-03", "RDMA_READ_RESPONSE_FIRST +0 1024 bytes, RDMA_READ_RESPONSE_MIDDLE +1 1024 bytes, "
                    + "RDMA_READ_RESPONSE_LAST +2 452 bytes / RDMA_READ_RESPONSE_MIDDLE +1 1024 bytes, "
                    + "RDMA_READ_RESPONSE_LAST +2 452 bytes");

    /** The cases where this lab's rxe0 answers otherwise than IBTA, each with rxe0's answer: Linux 6.1's. */
    Map<String, String> rxeAnswers() {
        return RXE_ANSWERS;
    }

    /** Cases the exchange cannot run (a UD QP or a memory window): skipped with that reason. */
    private static final Set<String> NOT_RUN = Set.of("ACC-19", "ACC-20", "ACC-21", "ACC-23", "UD-01", "UD-02", "UD-03");

    private static final Pattern ROW = Pattern.compile("^(PASS|FAIL|SKIP)\\s+(\\S+)\\s.* \\| observed: (.*?)"
            + "(?: \\(target's inside not checked\\))?(?:  <- .*|  \\(.*\\))?$");

    @Test
    void kernelRxeAnswersEveryCaseAsRecorded(Lab lab) throws Exception {
        List<ConformanceCase> all = CaseTable.all();
        long served = all.stream().filter(c -> !c.needsInProcessTarget()).count();
        long start = System.nanoTime();
        try {
            for (String address : List.of(TESTER, FORGER)) {
                Job.Result added = lab.inNamespaceNow("ip", "addr", "replace", address + "/24", "dev", BRIDGE);
                assertThat(added.exitCode()).as("%s", added).isZero();
            }
            try (Job target = lab.guest("rc-ops --many on rxe0", "cd /tmp && " + Lab.GUEST_JRXE + " rc-ops -d rxe0 -g "
                    + lab.guestGid4() + " -p " + PORT + " --many " + served + " --accept-timeout 300", 840)) {
                // its own line, not ss probes: each probe is one more process for the emulated guest to start
                target.awaitOutput("serving conformance cases on TCP port " + PORT, JVM_START_LIMIT);
                Job.Result tester;
                try (Job t = lab.jrxe("jrxe conformance", "conformance", "--target", Lab.GUEST4 + ":" + PORT, "--addr", TESTER,
                        "--timeout-ms", "1000", "--timeout", "120")) {
                    tester = t.await(RUN_LIMIT);
                }
                System.out.println(tester.output().strip());   // the measurement itself: every row, as docs/conformance.md records it
                Job.Result rxe = target.await(Duration.ofSeconds(60));
                assertThat(rxe.exitCode()).as("%s%n%s", rxe, tester).isZero();
                assertThat(rxe.output()).as("%s", rxe).contains("rc-ops conformance target on rxe0 (native)",
                        "served " + served + " conformance cases");
                assertRecordedAnswers(tester, all);
            }
        } finally {
            for (String address : List.of(TESTER, FORGER)) {
                lab.inNamespaceNow("ip", "addr", "del", address + "/24", "dev", BRIDGE);
            }
        }
        System.out.printf("conformance against rxe0: %.0f s%n", (System.nanoTime() - start) / 1e9);
    }

    private void assertRecordedAnswers(Job.Result tester, List<ConformanceCase> all) {
        Map<String, String> answers = rxeAnswers();
        String out = tester.output();
        assertThat(tester.exitCode()).as("%s", tester).isEqualTo(2);
        assertThat(out).as("%s", tester).contains("transmit: raw IPv4 socket", "forged packets from " + FORGER,
                String.format("conformance: %d cases, %d passed, %d failed, %d skipped", all.size(),
                        all.size() - answers.size() - NOT_RUN.size(), answers.size(), NOT_RUN.size()));
        Map<String, String[]> rows = new LinkedHashMap<>();
        for (String line : out.lines().toList()) {
            Matcher m = ROW.matcher(line);
            if (m.matches()) {
                rows.put(m.group(2), new String[] {m.group(1), m.group(3)});
            }
        }
        assertThat(rows.keySet()).as("%s", tester).containsExactlyElementsOf(all.stream().map(ConformanceCase::id).toList());
        Map<String, String> unexpected = new TreeMap<>();
        rows.forEach((id, row) -> {
            String verdict = row[0];
            String observed = row[1];
            String want = answers.containsKey(id) ? "FAIL " + answers.get(id) : NOT_RUN.contains(id) ? "SKIP not run"
                    : "PASS";
            String got = verdict.equals("PASS") ? "PASS" : verdict + " " + observed;
            if (!want.equals(got)) {
                unexpected.put(id, got + " (recorded: " + want + ")");
            }
        });
        assertThat(unexpected).as("cases where rxe0 answered otherwise than recorded in docs/conformance.md:%n%s", out)
                .isEmpty();
    }
}
