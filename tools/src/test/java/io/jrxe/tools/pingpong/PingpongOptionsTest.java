package io.jrxe.tools.pingpong;

import io.jrxe.tools.common.BadOptionAnswer;
import io.jrxe.tools.common.InProcess;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** ibv_rc_pingpong's and ibv_ud_pingpong's options: a bad one is one line naming it, exit 1. */
class PingpongOptionsTest {
    private static void bad(String mentions, String... args) {
        BadOptionAnswer.check(InProcess.run(args), args[0], mentions);
    }

    @Test
    void badOptionsAreOneLineNamingThem() {
        bad("-m/--mtu 1000", "pingpong", "-m", "1000");
        bad("-p/--port 70000: a TCP port is 1..65535", "pingpong", "-p", "70000");
        bad("-p/--port 0: a TCP port is 1..65535", "pingpong", "-p", "0");
        bad("-p/--port 0", "ud-pingpong", "-p", "0");
        bad("-i/--ib-port 0", "pingpong", "-i", "0");
        bad("-n/--iters 0", "pingpong", "-n", "0");
        bad("--no-such-option", "pingpong", "--no-such-option");
        bad("host2", "pingpong", "host1", "host2");
        bad("big", "pingpong", "-s", "big");
        bad("-m", "ud-pingpong", "-m", "1024");
        bad("-l/--sl 16", "ud-pingpong", "-l", "16");
        bad("--if-mtu 100", "pingpong", "--if-mtu", "100");
        bad("--timeout 0.0", "pingpong", "--timeout", "0");
        bad("--capture-max-mb 0", "pingpong", "--capture-max-mb", "0");
        bad("--qp-timeout 32: a QP timeout is 0..31", "pingpong", "--qp-timeout", "32");
    }

    @Test
    void ucAndSrqPingpongRefuseBadOptionsTheSameWay() {
        bad("-m/--mtu 1000", "uc-pingpong", "-m", "1000");
        bad("-n/--iters 0", "uc-pingpong", "-n", "0");
        bad("'-o'", "uc-pingpong", "-o");
        bad("-s/--size 0", "srq-pingpong", "-s", "0");
        bad("-q/--num-qp 0: use at least one QP", "srq-pingpong", "-q", "0");
        bad("-q/--num-qp 600: at most 255 QPs", "srq-pingpong", "-q", "600");
        bad("-q/--num-qp 200 with -r/--rx-depth 100: rx_depth is too small", "srq-pingpong", "-q", "200", "-r", "100");
        bad("-q/--num-qp 16 with -r/--rx-depth 8", "srq-pingpong", "-r", "8");
        bad("'-q'", "pingpong", "-q", "2");
    }

    @Test
    void ucAndSrqHelpListTheirOptionsAndDefaults() {
        InProcess uc = InProcess.run("uc-pingpong", "--help");
        assertThat(uc.status()).isZero();
        assertThat(uc.out()).contains("-s, --size", "-m, --mtu", "-r, --rx-depth", "-c, --chk").doesNotContain("-o, --odp", "--iodp", "--num-qp");
        InProcess srq = InProcess.run("srq-pingpong", "--help");
        assertThat(srq.status()).isZero();
        assertThat(srq.out()).contains("-q, --num-qp", "-r, --rx-depth", "-m, --mtu");
        assertThat(srq.out().replaceAll("\\s+", " ")).contains("number of QPs to use (default: 16)")
                .contains("(default: 500)").contains("default: 4096");
    }

    @Test
    void aMessageOverTheDevicesMaximumIsRefusedBeforeAnyConnection() {
        // No server listens on the port: a check after connecting would fail differently (and wait for the timeout).
        bad("-s/--size 8388609: a message is 1..8388608 bytes", "pingpong", "-s", "8388609", "-p", "19107", "localhost");
        bad("-s/--size 8388609", "pingpong", "-s", "8388609", "-p", "19107");
    }

    @Test
    void theHelpListsTheRealToolsOptions() {
        InProcess r = InProcess.run("pingpong", "--help");
        assertThat(r.status()).isZero();
        for (String o : new String[] {"-p, --port", "-d, --ib-dev", "-i, --ib-port", "-s, --size", "-m, --mtu", "-r, --rx-depth",
            "-n, --iters", "-l, --sl", "-e, --events", "-g, --gid-idx", "-o, --odp", "-O, --iodp", "-P, --prefetch", "-c, --chk",
            "--addr", "--capture", "--timeout", "--odp-implicit"}) {
            assertThat(r.out()).contains(o);
        }
        assertThat(r.out().replaceAll("\\s+", " ")).as("-O works now").contains("use implicit on-demand paging: one "
                + "ON_DEMAND MR for the whole address space").doesNotContain("refused: jrxe does not model");
        // Compared with the help's line breaks folded, since picocli wraps at its own column.
        assertThat(r.out().replaceAll("\\s+", " ")).contains("default: 18515").contains("default: 4096").contains("default: 1024").contains("default: 500")
                .contains("default: 1000");
        assertThat(InProcess.run("ud-pingpong", "--help").out()).contains("default: 1024").doesNotContain("--mtu");
    }

    @Test
    void theMissingFeaturesAreRefusedClearly() {
        bad("-t/--ts", "pingpong", "-t");
        bad("device memory", "pingpong", "-j");
        bad("DM memory region can't be on demand", "pingpong", "-o", "-j");
        bad("-j/--dm with -O/--iodp: DM memory region can't be on demand", "pingpong", "-O", "-j");
    }

    @Test
    void prefetchWithoutOnDemandMemoryIsRefusedInOneLine() {
        InProcess prefetch = InProcess.run("pingpong", "-P");
        BadOptionAnswer.check(prefetch, "pingpong");
        assertThat(prefetch.err().strip()).isEqualTo("jrxe pingpong: -P/--prefetch: prefetch is valid only with on-demand "
                + "memory region (-o/--odp or -O/--iodp) (see 'jrxe pingpong --help')");
    }

    @Test
    void aGidIndexOutsideTheTableSaysWhichExist() {
        bad("GID index 7", "pingpong", "--addr", "127.0.1.71", "-d", "jrxe-pp-gid", "-g", "7", "-p", "19105");
        assertThat(InProcess.run("pingpong", "--addr", "127.0.1.71", "-d", "jrxe-pp-gid", "-g", "7", "-p", "19105").err())
                .contains("0..1");
    }

    @Test
    void aUdMessageLargerThanTheMtuIsRefusedAsTheRealTool() {
        InProcess r = InProcess.run("ud-pingpong", "--addr", "127.0.1.72", "-d", "jrxe-pp-ud", "-s", "2048", "-p", "19106");
        BadOptionAnswer.check(r, "ud-pingpong");
        assertThat(r.err().strip()).isEqualTo("jrxe ud-pingpong: -s/--size 2048: Requested size larger than port MTU (1024) "
                + "(see 'jrxe ud-pingpong --help')");
    }

    @Test
    void aCaptureIntoAMissingDirectorySaysWhy() {
        InProcess r = InProcess.run("pingpong", "--addr", "127.0.1.73", "-d", "jrxe-pp-cap", "--capture", "/no/such/dir/x.pcapng",
                "-p", "19108");
        BadOptionAnswer.check(r, "pingpong", "--capture /no/such/dir/x.pcapng", "no such directory: /no/such/dir");
    }

    @Test
    void countersArePrintedWhenTheServerWaitedInVain() {
        InProcess r = InProcess.run("pingpong", "--addr", "127.0.1.74", "-d", "jrxe-pp-cnt", "--counters", "--accept-timeout", "0.2",
                "-p", "19109");
        assertThat(r.status()).as(r.toString()).isEqualTo(2);
        java.util.List<String> err = r.err().lines().toList();
        assertThat(err).as(r.toString()).hasSize(2);
        assertThat(err.get(0)).startsWith("counters of jrxe-pp-cnt");
        assertThat(err.get(1)).startsWith("jrxe pingpong: no client connected to TCP port 19109");
    }
}
