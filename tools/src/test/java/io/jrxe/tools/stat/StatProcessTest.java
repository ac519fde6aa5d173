package io.jrxe.tools.stat;

import io.jrxe.tools.common.BadOptionAnswer;
import io.jrxe.tools.common.ChildJrxe;
import io.jrxe.tools.common.InProcess;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `jrxe stat` against a jrxe pingpong server in another JVM: its device's counters and its QP, read through the
 * Attach API and JMX while the server waits for its client; then the client runs and the server ends normally.
 */
class StatProcessTest {
    private static final long CHILD_SECONDS = 90;
    private static final Pattern LOCAL_QPN = Pattern.compile("  local address:  LID 0x0000, QPN 0x([0-9a-f]{6}), .*");

    @Test
    void statPrintsTheCountersAndTheQpOfARunningServer() throws Exception {
        try (ChildJrxe server = ChildJrxe.start("pingpong", "--addr", "127.0.1.31", "-d", "jrxe-stat-srv", "-p", "19131",
                "-n", "20", "-s", "64")) {
            Matcher local = LOCAL_QPN.matcher(server.awaitLine(l -> l.startsWith("  local address:"), CHILD_SECONDS));
            assertThat(local.matches()).isTrue();
            int qpn = Integer.parseInt(local.group(1), 16);
            String pid = Long.toString(server.pid());

            InProcess once = InProcess.run("stat", pid, "--qps");
            assertThat(once.status()).as(once.toString()).isZero();
            List<String> lines = once.lines();
            assertThat(lines.getFirst()).isEqualTo("link jrxe-stat-srv/1");
            assertThat(lines).as("the warm-up's traffic is counted too").anyMatch(l -> l.matches("    rdma_recvs=[1-9]\\d*")).anyMatch(l -> l.matches("    sent_pkts=\\d+"))
                    .anyMatch(l -> l.matches("    jrxe_drop_bad_icrc=\\d+"));
            // The server posted its 500 receives and waits in INIT for the client's address.
            assertThat(lines).filteredOn(l -> l.startsWith("dev ")).containsExactly(String.format(
                    "dev jrxe-stat-srv lqpn %d rqpn 0 type RC state INIT sq-psn 0x000000 rq-psn 0x000000 sq-wrs 0 rq-wrs 500", qpn));
            assertThat(once.err()).isEmpty();

            InProcess twice = InProcess.run("stat", pid, "-i", "0.1", "-c", "2");
            assertThat(twice.status()).as(twice.toString()).isZero();
            assertThat(twice.lines()).filteredOn(l -> l.startsWith("link ")).hasSize(2);
            assertThat(twice.lines()).as("reports apart by a blank line; no QPs without --qps").contains("")
                    .noneMatch(l -> l.startsWith("dev "));

            // Without a PID: this server is listed, or shown when it is the only JVM with jrxe devices.
            InProcess any = InProcess.run("stat");
            assertThat(any.status()).as(any.toString()).isZero();
            assertThat(any.out()).as(any.toString()).satisfiesAnyOf(
                    o -> assertThat(o).containsPattern("(?m)^" + pid + " jrxe-stat-srv "),
                    o -> assertThat(o).startsWith("link jrxe-stat-srv/1"));

            InProcess client = InProcess.run("pingpong", "--addr", "127.0.1.32", "-d", "jrxe-stat-cli", "-p", "19131", "-n", "20",
                    "-s", "64", "127.0.1.31");
            assertThat(client.status()).as(client.toString()).isZero();
            assertThat(server.waitFor(CHILD_SECONDS)).as(server.stderr()).isZero();
        }
    }

    @Test
    void aProcessThatIsGoneOrNotAJvmOrWithoutJrxeIsOneLine() throws Exception {
        failsWith(InProcess.run("stat", Integer.toString(Integer.MAX_VALUE)), "no process " + Integer.MAX_VALUE);
        failsWith(InProcess.run("stat", Long.toString(ProcessHandle.current().pid())), "is this jrxe stat itself");

        Process sleep = new ProcessBuilder("sleep", "60").start();
        try {
            failsWith(InProcess.run("stat", Long.toString(sleep.pid())), "process " + sleep.pid() + " is not a Java VM");
            assertThat(sleep.isAlive()).as("jrxe stat sent nothing to a process that is not a JVM").isTrue();
        } finally {
            sleep.destroy();
        }

        Process idle = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), IdleJvm.class.getName()).start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(idle.getInputStream(), StandardCharsets.UTF_8))) {
            assertThat(r.readLine()).isEqualTo("ready");
            failsWith(InProcess.run("stat", Long.toString(idle.pid())), "is a Java VM without jrxe devices");
        } finally {
            idle.getOutputStream().close();
            assertThat(idle.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
    }

    private static void failsWith(InProcess r, String message) {
        assertThat(r.status()).as(r.toString()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().lines().toList()).as(r.toString()).hasSize(1);
        assertThat(r.err()).startsWith("jrxe stat: ").contains(message);
    }

    @Test
    void badOptionsAreOneLineNamingThem() {
        BadOptionAnswer.check(InProcess.run("stat", "-i", "0"), "stat", "-i/--interval 0.0", "0.1..3600");
        BadOptionAnswer.check(InProcess.run("stat", "-c", "0"), "stat", "-c/--count 0", "1..1000000");
        BadOptionAnswer.check(InProcess.run("stat", "0"), "stat", "PID 0");
        BadOptionAnswer.check(InProcess.run("stat", "not-a-pid"), "stat", "not-a-pid");
        BadOptionAnswer.check(InProcess.run("stat", "--qp"), "stat", "--qp");
    }
}
