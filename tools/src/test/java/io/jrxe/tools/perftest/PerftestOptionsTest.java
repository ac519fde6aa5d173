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
        refused("--qp-spread: bandwidth tests run for a count of iterations only (not -D)", "write-lat", "--qp-spread");
        refused("--qp-spread: bandwidth tests run for a count of iterations only (not -D)", "write-bw", "-D", "2",
                "--qp-spread");
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
        refused("-R with -c UC: UC is not supported in librdmacm", "write-bw", "-R", "-c", "UC", "127.0.0.1");
        refused("-R with -c UD: jrxe connects RC QPs only through the connection manager", "send-bw", "-R", "-c", "UD",
                "127.0.0.1");
        refused("--progress invoker with -R/-z: the connection manager needs the jrxe NIC's own thread", "send-lat", "-z",
                "--progress", "invoker", "127.0.0.1");
        refused("-c XRC: jrxe's perftest runs RC, UC and UD connections", "send-bw", "-c", "XRC");
        refused("Duration mode currently doesn't support running on all sizes.", "write-bw", "-D", "2", "-a");
    }

    /** The modes' options, with perftest's words for what perftest refuses (as clients: a check that fails cannot hang). */
    @Test
    void modesAreCheckedAsPerftestChecksThem() {
        refused("-c UD: UD connection only possible in SEND verb", "write-bw", "-c", "UD", "127.0.0.1");
        refused("-c UC: UC connection not possible in READ/ATOMIC verbs", "read-bw", "-c", "UC", "127.0.0.1");
        refused("-c UC: UC connection not possible in READ/ATOMIC verbs", "atomic-lat", "-c", "UC", "127.0.0.1");
        refused("Invalid Connection type. Please choose from {RC,UC,UD,XRC,DC,SRD}", "send-bw", "-c", "TCP", "127.0.0.1");
        refused("-b/--bidirectional: Bidirectional is only available in BW test", "write-lat", "-b", "127.0.0.1");
        refused("--use-srq: Using SRQ only available in SEND tests", "write-bw", "--use-srq", "127.0.0.1");
        refused("Using SRQ depth should be greater than number of QPs", "send-bw", "--use-srq", "-q", "8", "-r", "4", "127.0.0.1");
        refused("-l/--post_list: Post list is supported in BW tests only", "send-lat", "-l", "4", "127.0.0.1");
        refused("-l/--post_list 3: Number of iterations must be a multiple of post list size", "write-bw", "-l", "3", "-n", "100", "127.0.0.1");
        refused("-l/--post_list 4: Post list size must be a multiple of CQ moderation", "write-bw", "-l", "4", "-Q", "3", "127.0.0.1");
        refused("-l/--post_list 0: a post list has at least 1 work request", "write-bw", "-l", "0", "127.0.0.1");
        refused("--out_json_file: the file is for --out_json", "write-bw", "--out_json_file", "x.json", "127.0.0.1");
        refused("--out_json_file /nonexistent-dir/x.json: cannot be written", "write-bw", "--out_json",
                "--out_json_file", "/nonexistent-dir/x.json", "127.0.0.1");
        refused("--peer-mlx5dv maybe: yes or no", "write-bw", "--peer-mlx5dv", "maybe", "127.0.0.1");
        refused("--announce-version 5.60: perftest refuses a peer older than 5.70", "write-bw", "--announce-version", "5.60", "127.0.0.1");
        refused("-b with -e: jrxe's bidirectional send test polls its two CQs", "send-bw", "-b", "-e", "127.0.0.1");
    }

    @Test
    void helpAndVersion() {
        InProcess help = InProcess.run("write-bw", "--help");
        assertThat(help.status()).isZero();
        for (String o : new String[] {"-p, --port", "-d, --ib-dev", "-i, --ib-port", "-m, --mtu", "-s, --size", "-a, --all",
            "-n, --iters", "-D, --duration", "-f, --margin", "-t, --tx-depth", "-Q, --cq-mod", "-q, --qp", "-x, --gid-index", "-F, --CPU-freq",
            "--report_gbits", "--json", "--addr", "--capture", "-c, --connection", "-b, --bidirectional", "-l, --post_list",
            "--use-srq", "--out_json", "--out_json_file", "--peer-mlx5dv", "--announce-version"}) {
            assertThat(help.out()).contains(o);
        }
        assertThat(InProcess.run("atomic-lat", "--help").out()).contains("-A, --atomic_type");
        assertThat(InProcess.run("send-lat", "-V").out().strip()).isEqualTo("Version: 6.10");
    }
}
