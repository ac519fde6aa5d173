package io.jrxe.tools.pingpong;

import io.jrxe.tools.common.InProcess;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** ibv_rc_pingpong's and ibv_ud_pingpong's options: bad ones print the usage and exit 1. */
class PingpongOptionsTest {
    private static void usage(String... args) {
        InProcess r = InProcess.run(args);
        assertThat(r.status()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("Usage: jrxe " + args[0]);
        assertThat(r.out()).isEmpty();
    }

    @Test
    void badOptionsPrintTheUsage() {
        usage("pingpong", "-m", "1000");
        usage("pingpong", "-p", "70000");
        usage("pingpong", "-i", "0");
        usage("pingpong", "-n", "0");
        usage("pingpong", "--no-such-option");
        usage("pingpong", "host1", "host2");
        usage("pingpong", "-s", "big");
        usage("ud-pingpong", "-m", "1024");
        usage("ud-pingpong", "-l", "16");
    }

    @Test
    void theHelpListsTheRealToolsOptions() {
        InProcess r = InProcess.run("pingpong", "--help");
        assertThat(r.status()).isZero();
        for (String o : new String[] {"-p, --port", "-d, --ib-dev", "-i, --ib-port", "-s, --size", "-m, --mtu", "-r, --rx-depth",
            "-n, --iters", "-l, --sl", "-e, --events", "-g, --gid-idx", "-o, --odp", "-c, --chk", "--addr", "--capture", "--timeout"}) {
            assertThat(r.out()).contains(o);
        }
        // Compared with the help's line breaks folded, since picocli wraps at its own column.
        assertThat(r.out().replaceAll("\\s+", " ")).contains("default: 18515").contains("default: 4096").contains("default: 1024").contains("default: 500")
                .contains("default: 1000");
        assertThat(InProcess.run("ud-pingpong", "--help").out()).contains("default: 1024").doesNotContain("--mtu");
    }

    @Test
    void odpAndTheOtherMissingFeaturesAreRefusedClearly() {
        InProcess odp = InProcess.run("pingpong", "--addr", "127.0.1.70", "-o");
        assertThat(odp.status()).isEqualTo(2);
        assertThat(odp.err().strip()).startsWith("jrxe pingpong: The device isn't ODP capable").contains("no on-demand paging");
        assertThat(InProcess.run("pingpong", "-t").err()).contains("timestamp");
        assertThat(InProcess.run("pingpong", "-j").err()).contains("device memory");
        assertThat(InProcess.run("pingpong", "-P").err()).contains("prefetch is valid only with on-demand memory region");
    }

    @Test
    void aGidIndexOutsideTheTableSaysWhichExist() {
        InProcess r = InProcess.run("pingpong", "--addr", "127.0.1.71", "-d", "jrxe-pp-gid", "-g", "7", "-p", "19105");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).contains("GID index 7").contains("0..1");
    }

    @Test
    void aUdMessageLargerThanTheMtuIsRefusedAsTheRealTool() {
        InProcess r = InProcess.run("ud-pingpong", "--addr", "127.0.1.72", "-d", "jrxe-pp-ud", "-s", "2048", "-p", "19106");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("jrxe ud-pingpong: Requested size larger than port MTU (1024)");
    }
}
