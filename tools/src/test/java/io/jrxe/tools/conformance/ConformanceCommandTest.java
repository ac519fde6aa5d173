package io.jrxe.tools.conformance;

import io.jrxe.tools.common.BadOptionAnswer;
import io.jrxe.tools.common.InProcess;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `jrxe conformance` end to end: the whole table against the in-process jrxe target (every case passes, at least
 * 60 of them), a subset against `jrxe rc-ops --many` through the exchange, the listing, and the command line's
 * errors (exit 1 for a bad option, 2 for a target that cannot be reached).
 */
class ConformanceCommandTest {
    @Test
    void everyCasePassesAgainstTheInProcessJrxeTarget() {
        InProcess r = InProcess.run("conformance");
        assertThat(r.status()).as(r.toString()).isZero();
        List<String> rows = r.lines().stream().filter(l -> l.matches("^(PASS|FAIL|SKIP) .*")).toList();
        assertThat(rows.stream().filter(l -> l.startsWith("PASS"))).as(r.toString()).hasSizeGreaterThanOrEqualTo(60);
        assertThat(rows).as(r.toString()).hasSize(CaseTable.all().size()).allMatch(l -> l.startsWith("PASS"));
        assertThat(r.lines().getLast()).isEqualTo(String.format("conformance: %d cases, %d passed, 0 failed, 0 skipped",
                rows.size(), rows.size()));
        assertThat(r.out()).contains("transmit: UDP socket", "SRC-01", "expected [rxe]", "expected [IBTA]");
    }

    @Test
    void aSubsetPassesAgainstRcOpsManyThroughTheExchange() throws Exception {
        List<ConformanceCase> cases = CaseTable.matching("PSN-0*");
        CompletableFuture<InProcess> server = CompletableFuture.supplyAsync(() -> InProcess.run("rc-ops", "-d",
                "jrxe-conformance-server", "--addr", "127.0.79.1", "-p", "18620", "--many", String.valueOf(cases.size())));
        InProcess tester = InProcess.run("conformance", "--target", "127.0.79.1:18620", "--addr", "127.0.79.2",
                "--case", "PSN-0*");
        InProcess served = server.get(60, TimeUnit.SECONDS);
        assertThat(tester.status()).as(tester.toString()).isZero();
        assertThat(tester.out()).contains("rc-ops --many target at 127.0.79.1:18620",
                String.format("conformance: %d cases, %d passed, 0 failed", cases.size(), cases.size()));
        assertThat(served.status()).as(served.toString()).isZero();
        assertThat(served.out()).contains("served " + cases.size() + " conformance cases");
    }

    /** A tester that gives up (here: connects and leaves without a word) ends its case, not the target. */
    @Test
    void aTesterThatLeavesEndsItsCaseAndTheTargetServesTheNext() throws Exception {
        CompletableFuture<InProcess> server = CompletableFuture.supplyAsync(() -> InProcess.run("rc-ops", "-d",
                "jrxe-conformance-leaver", "--addr", "127.0.79.3", "-p", "18622", "--many", "2"));
        InProcess tester;
        for (int attempt = 0; ; attempt++) {
            try (java.net.Socket gone = new java.net.Socket()) {
                gone.connect(new java.net.InetSocketAddress("127.0.79.3", 18622), 20_000);
                break; // and closed at once, before sending its QP
            } catch (java.io.IOException notYetListening) {
                assertThat(attempt).as("rc-ops --many listened within 60 tries").isLessThan(60);
                assertThat(server.isDone()).as("the server ended before listening: %s", server.getNow(null)).isFalse();
                java.util.concurrent.locks.LockSupport.parkNanos(250_000_000L);
            }
        }
        tester = InProcess.run("conformance", "--target", "127.0.79.3:18622", "--addr", "127.0.79.4", "--case", "PSN-01");
        InProcess served = server.get(60, TimeUnit.SECONDS);
        assertThat(tester.status()).as(tester.toString()).isZero();
        assertThat(served.status()).as(served.toString()).isZero();
        assertThat(served.out()).contains("a tester left:", "served 2 conformance cases");
    }

    @Test
    void theListShowsEveryCaseWithItsReference() {
        InProcess r = InProcess.run("conformance", "--list");
        assertThat(r.status()).isZero();
        assertThat(r.lines()).hasSize(CaseTable.all().size()).anyMatch(l -> l.startsWith("RNR-01") && l.contains("[IBTA]"))
                .anyMatch(l -> l.startsWith("PSN-08") && l.contains("[rxe]") && l.contains("--"));
        assertThat(CaseTable.all().size()).isGreaterThanOrEqualTo(60);
        assertThat(CaseTable.all().stream().map(ConformanceCase::id).distinct()).hasSize(CaseTable.all().size());
    }

    @Test
    void badOptionsAreOneLineAndExitOne() {
        BadOptionAnswer.check(InProcess.run("conformance", "--timeout-ms", "0"), "conformance", "--timeout-ms", "1..60000");
        BadOptionAnswer.check(InProcess.run("conformance", "--timeout", "0"), "conformance", "--timeout", "1..600");
        BadOptionAnswer.check(InProcess.run("conformance", "--case", "NOPE-*"), "conformance", "--case", "--list");
        BadOptionAnswer.check(InProcess.run("conformance", "--target", "127.0.0.1:70000"), "conformance", "--target", "1..65535");
        BadOptionAnswer.check(InProcess.run("conformance", "--addr", "not-an-address"), "conformance", "--addr");
        BadOptionAnswer.check(InProcess.run("conformance", "--addr", ConformanceCommand.TARGET_ADDRESS), "conformance",
                "--addr", "in-process target");
        BadOptionAnswer.check(InProcess.run("rc-ops", "--many", "-1"), "rc-ops", "--many");
        BadOptionAnswer.check(InProcess.run("rc-ops", "--many", "2", "127.0.0.1"), "rc-ops", "--many", "SERVERNAME");
    }

    @Test
    void aTargetThatCannotBeReachedExitsTwoWithOneLine() {
        InProcess r = InProcess.run("conformance", "--target", "127.0.79.9:18621", "--addr", "127.0.79.8");
        assertThat(r.status()).as(r.toString()).isEqualTo(2);
        assertThat(r.err().lines().toList()).as(r.toString()).hasSize(1);
        assertThat(r.err()).startsWith("jrxe conformance: couldn't connect to 127.0.79.9:18621").doesNotContain("Exception");
    }
}
