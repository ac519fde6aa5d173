package io.jrxe.tools.perftest;

import io.jrxe.tools.common.BadOptionAnswer;
import io.jrxe.tools.common.InProcess;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** perftest's options: a bad one, or one jrxe does not do, is one line naming it (exit 1). */
class PerftestOptionsTest {
    private static void usage(String... args) {
        BadOptionAnswer.check(InProcess.run(args), args[0]);
    }

    private static void refused(String message, String... args) {
        BadOptionAnswer.check(InProcess.run(args), args[0], message);
    }

    @Test
    void badOptionsAreOneLine() {
        refused("-p/--port 0: a TCP port is 1..65535", "write-bw", "-p", "0");
        refused("-s/--size 8388609: a size is 1..8388608", "write-bw", "-s", "8388609", "localhost");
        usage("write-bw", "-q", "0");
        usage("write-lat", "-q", "2");
        usage("write-bw", "-m", "1000");
        usage("write-bw", "-n", "4");
        usage("write-bw", "-A", "CMP_AND_SWAP");
        usage("atomic-bw", "-A", "SWAP_IT");
        usage("read-bw", "-I", "64");
        usage("write-bw", "-o", "4");
        usage("read-bw", "-r", "16");
        usage("write-bw", "-H");
        usage("write-lat", "-N");
        usage("send-bw", "-s", "lots");
        usage("write-bw", "a", "b");
        usage("write-bw", "-D", "4", "-f", "2");
        usage("write-bw", "-f", "1");
    }

    /**
     * Every perftest command refuses a size past the port's max_msg_sz before it connects (as client) or listens
     * (as server): the client here names a server nobody runs, and a server that listened would wait forever.
     */
    @Test
    void everyCommandRefusesASizePastTheMaxMessageSizeBeforeConnecting() {
        assertThat(PerftestCommand.MAX_SIZE).isEqualTo(io.jrxe.rnic.device.Port.MAX_MESSAGE_SIZE);
        String tooBig = String.valueOf(PerftestCommand.MAX_SIZE + 1);
        for (String command : new String[] {"write-bw", "write-lat", "read-bw", "read-lat", "send-bw", "send-lat",
                                            "atomic-bw", "atomic-lat"}) {
            String message = "-s/--size " + tooBig + ": a size is 1.." + PerftestCommand.MAX_SIZE;
            refused(message, command, "-s", tooBig);
            refused(message, command, "-s", tooBig, "127.0.0.1");
        }
    }

    @Test
    void whatJrxeDoesNotDoIsSaid() {
        refused("Message size cannot be changed for Atomic tests", "atomic-bw", "-s", "16");
        refused("jrxe has no RDMA CM", "write-bw", "-R");
        refused("RC connections only", "send-bw", "-c", "UD");
        refused("bidirectional", "write-bw", "-b");
        refused("Duration mode currently doesn't support running on all sizes.", "write-bw", "-D", "2", "-a");
    }

    @Test
    void helpAndVersion() {
        InProcess help = InProcess.run("write-bw", "--help");
        assertThat(help.status()).isZero();
        for (String o : new String[] {"-p, --port", "-d, --ib-dev", "-i, --ib-port", "-m, --mtu", "-s, --size", "-a, --all",
            "-n, --iters", "-D, --duration", "-f, --margin", "-t, --tx-depth", "-Q, --cq-mod", "-q, --qp", "-x, --gid-index", "-F, --CPU-freq",
            "--report_gbits", "--json", "--addr", "--capture"}) {
            assertThat(help.out()).contains(o);
        }
        assertThat(InProcess.run("atomic-lat", "--help").out()).contains("-A, --atomic_type");
        assertThat(InProcess.run("send-lat", "-V").out().strip()).isEqualTo("Version: 6.10");
    }
}
