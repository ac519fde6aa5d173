package io.jrxe.tools.compare;

import io.jrxe.tools.common.BadOptionAnswer;
import io.jrxe.tools.common.InProcess;
import io.jrxe.verbs.facade.Verbs;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `jrxe compare`: without a kernel device it says why and exits 2; --self-test compares two real jrxe setups (two
 * NICs against one NIC with both QPs) and finds them the same; a difference injected into one setup is marked and
 * named, and the exit status says so.
 */
class CompareCommandTest {
    @Test
    void withoutAKernelDeviceItSaysWhyInOneLine() {
        Assumptions.assumeTrue(Verbs.nativeProvider().devices().stream().noneMatch(d -> d.name().equals("rxe0")),
                "this machine has rxe0");
        InProcess r = InProcess.run("compare", "--scenario", "demo");
        assertThat(r.status()).as(r.toString()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().lines().toList()).containsExactly("jrxe compare: no native RDMA device named rxe0: "
                + Verbs.nativeProvider().whyNoDevices().orElseThrow());
    }

    @Test
    void jrxeAgainstJrxeBehavesTheSameInEveryStep() {
        InProcess r = InProcess.run("compare", "--self-test", "-n", "50", "-s", "2048", "--addr-a", "127.0.8.1",
                "--addr-b", "127.0.8.2", "--addr-c", "127.0.8.3");
        assertThat(r.status()).as(r.toString()).isZero();
        List<String> lines = r.lines();
        assertThat(lines).noneMatch(l -> l.startsWith("!"));
        assertThat(lines.getLast()).isEqualTo("Same behaviour in every step.");
        assertThat(lines).filteredOn(l -> l.matches("\\d+\\. .*")).hasSize(16);
        // Each kind of row holds what the step did, on both sides.
        assertThat(lines).anyMatch(l -> l.matches("  on B +RECV_RDMA_WITH_IMM SUCCESS len=32 imm=0x0000002a +"
                + "RECV_RDMA_WITH_IMM SUCCESS len=32 imm=0x0000002a"));
        assertThat(lines).anyMatch(l -> l.matches("  QP states +A ERR, B destroyed +A ERR, B destroyed"));
        assertThat(lines).anyMatch(l -> l.matches("  on A +RNR_RETRY_EXC_ERR +RNR_RETRY_EXC_ERR"));
        assertThat(lines).anyMatch(l -> l.matches("  memory +B's word 100, A got 99 +B's word 100, A got 99"));
        assertThat(lines).anyMatch(l -> l.matches(" +B>A ACKNOWLEDGE psn\\+0 NAK remote access error msn=0 +"
                + "B>A ACKNOWLEDGE psn\\+0 NAK remote access error msn=0"));
        assertThat(lines).anyMatch(l -> l.matches(" +A>B RDMA_WRITE_LAST psn\\+3 A len=100 +A>B RDMA_WRITE_LAST psn\\+3 A len=100"));
        assertThat(lines).anyMatch(l -> l.matches("  on A +50 x RDMA_WRITE SUCCESS len=2048 +50 x RDMA_WRITE SUCCESS len=2048"));
        assertThat(lines).anyMatch(l -> l.matches("~ speed +\\d+\\.\\d MiB/s, \\d+ messages/s .*"));
        assertThat(lines).anyMatch(l -> l.matches("~ speed +typical \\d+\\.\\d us, .*"));
    }

    @Test
    void theMistakesScenarioEndsEachMistakeTheSameWayOnBothSetups() {
        InProcess r = InProcess.run("compare", "--self-test", "--scenario", "mistakes", "--addr-a", "127.0.8.21",
                "--addr-b", "127.0.8.22", "--addr-c", "127.0.8.23");
        assertThat(r.status()).as(r.toString()).isZero();
        List<String> lines = r.lines();
        assertThat(lines.getLast()).isEqualTo("Same behaviour in every step.");
        assertThat(lines).filteredOn(l -> l.matches("\\d+\\. .*")).hasSize(6);
        assertThat(lines).filteredOn(l -> l.matches("  on A +LOC_PROT_ERR +LOC_PROT_ERR")).hasSize(2);
        assertThat(lines).anyMatch(l -> l.matches("  on A +REM_ACCESS_ERR +REM_ACCESS_ERR"));
        assertThat(lines).anyMatch(l -> l.matches("  on A +RDMA_WRITE SUCCESS len=8192 +RDMA_WRITE SUCCESS len=8192"));
        assertThat(lines).anyMatch(l -> l.matches("  memory +post_send refused: EINVAL +post_send refused: EINVAL"));
        assertThat(lines).anyMatch(l -> l.matches("  on A +RNR_RETRY_EXC_ERR +RNR_RETRY_EXC_ERR"));
    }

    @Test
    void aDifferenceInOneSetupIsMarkedNamedAndExitsOne() {
        CompareCommand command = new CompareCommand();
        command.injectIntoRight = "write";
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(command);
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int status = cli.execute("--self-test", "--scenario", "demo", "--addr-a", "127.0.8.4", "--addr-b", "127.0.8.5",
                "--addr-c", "127.0.8.6");
        assertThat(status).as(out + "\n" + err).isEqualTo(1);
        List<String> lines = out.toString().lines().toList();
        int write = lines.indexOf("3. RDMA_WRITE: 64 bytes into B's memory");
        int next = lines.indexOf("4. RDMA_WRITE_WITH_IMM: 32 bytes and immediate data 42, consuming a receive");
        assertThat(write).isPositive().isLessThan(next);
        for (int i = 0; i < lines.size(); i++) {
            assertThat(!lines.get(i).startsWith("!") || i > write && i < next).as("line %d: %s", i, lines.get(i)).isTrue();
        }
        assertThat(lines.subList(write, next)).anyMatch(l -> l.matches("! on A +RDMA_WRITE SUCCESS len=64 +REM_ACCESS_ERR"))
                .anyMatch(l -> l.matches("! memory +B\\+8192: 64 x 0x5a +B\\+8192: 64 x 0x00"))
                .anyMatch(l -> l.matches("! QP states +A RTS, B RTS +A ERR, B ERR"))
                .anyMatch(l -> l.matches("! +B>A ACKNOWLEDGE psn\\+0 ACK credits=invalid msn=1 +B>A ACKNOWLEDGE psn\\+0 NAK remote "
                        + "access error msn=0"));
        assertThat(lines.subList(next, lines.size())).contains("4 difference(s) in behaviour, each a jrxe bug unless the README "
                + "documents it:", "  write: on A", "  write: memory", "  write: QP states", "  write: packets");
    }

    @Test
    void badOptionsAreRefusedInOneLine() {
        for (String[] args : new String[][] {{"--scenario", "bogus"}, {"-s", "0", "--self-test"}, {"-n", "0", "--self-test"},
            {"--timeout", "0", "--self-test"}, {"--native-capture", "x.pcap", "--tcpdump", "lo"}, {"--self-test", "--tcpdump", "lo"}}) {
            BadOptionAnswer.check(InProcess.run(prepend("compare", args)), "compare", args[0]);
        }
    }

    private static String[] prepend(String first, String[] rest) {
        String[] all = new String[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }
}
