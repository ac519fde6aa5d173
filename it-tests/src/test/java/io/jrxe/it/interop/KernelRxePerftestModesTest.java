package io.jrxe.it.interop;

import io.jrxe.it.interop.Pairings.Gids;
import io.jrxe.it.interop.Pairings.Pair;
import io.jrxe.it.interop.Pairings.Server;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static io.jrxe.it.interop.Pairings.assertBandwidth;
import static io.jrxe.it.interop.Pairings.assertBothSucceeded;
import static io.jrxe.it.interop.Pairings.assertSawEachOthersGid;
import static io.jrxe.it.interop.Pairings.pair;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * perftest's other modes, jrxe's commands paired with the guest's perftest (4.5 on Debian 12) both ways over the IPv6
 * GIDs: UD send bandwidth and latency, UC writes over two QPs and UC sends, sends into an SRQ over two QPs, both
 * directions at once (-b) for writes and sends, and post lists (-l) with --out_json, whose file is held against
 * perftest's own. Short runs (100 messages per QP, 16 in flight): each pairing is a few seconds of traffic under TCG.
 */
@ExtendWith(LabExtension.class)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class KernelRxePerftestModesTest {
    private static final int ITERATIONS = 100;
    /**
     * The send queue's depth on both sides. Under TCG on a loaded host the guest drops packets of long bursts (its
     * virtio queue overflows) and RC's go-back-N sends the whole window again: a window of 16 keeps retries rare.
     */
    private static final int TX_DEPTH = 16;

    /**
     * One mode: the test, the options both sides get, the message size and the iterations each row shows (per QP
     * times the QPs), and a header line both sides print for it.
     */
    record Mode(String name, String test, List<String> options, String size, int rowIterations, String headerLine) {
        @Override
        public String toString() {
            return name;
        }
    }

    static final List<Mode> MODES = List.of(
            new Mode("send-bw -c UD", "send", List.of("-c", "UD"), "1024", ITERATIONS, "Connection type : UD"),
            new Mode("write-bw -c UC -q 2", "write", List.of("-c", "UC", "-q", "2", "-s", "8192"), "8192", 2 * ITERATIONS,
                    "Connection type : UC"),
            new Mode("send-bw -c UC", "send", List.of("-c", "UC", "-s", "4096"), "4096", ITERATIONS, "Connection type : UC"),
            new Mode("send-bw --use-srq -q 2", "send", List.of("--use-srq", "-q", "2", "-s", "4096"), "4096", 2 * ITERATIONS,
                    "Using SRQ      : ON"),
            new Mode("write-bw -b", "write", List.of("-b", "-s", "4096"), "4096", ITERATIONS, "RDMA_Write Bidirectional BW Test"),
            new Mode("send-bw -b", "send", List.of("-b", "-s", "4096"), "4096", ITERATIONS, "Send Bidirectional BW Test"),
            new Mode("write-bw -l 4", "write", List.of("-l", "4", "-s", "4096"), "4096", ITERATIONS, "RDMA_Write Post List BW Test"));

    static Stream<Arguments> modes() {
        return MODES.stream().flatMap(mode -> Stream.of(Server.values()).map(server -> Arguments.of(mode, server)));
    }

    @ParameterizedTest(name = "{0}, {1} serves")
    @MethodSource("modes")
    void bandwidthMode(Mode mode, Server server, Lab lab) throws Exception {
        int port = 18670 + 2 * MODES.indexOf(mode) + server.ordinal();
        Pair p = pairBandwidth(lab, mode, server, port, List.of(), List.of());
        // jrxe measures on both sides of a send test and of -b; of the others on the client only.
        boolean jrxeMeasured = server == Server.KERNEL || mode.test().equals("send") || mode.options().contains("-b");
        assertBandwidth(p, mode.size(), mode.rowIterations(), jrxeMeasured, Gids.IPV6);
        assertThat(p.jrxe().output()).as("jrxe's header").contains(mode.headerLine());
        assertThat(p.kernel().output()).as("perftest's header").contains(mode.headerLine());
    }

    private static Pair pairBandwidth(Lab lab, Mode mode, Server server, int port, List<String> guestExtra, List<String> jrxeExtra)
            throws Exception {
        String guest = "ib_" + mode.test() + "_bw -d rxe0 -x " + lab.guestGid6() + " -F -n " + ITERATIONS + " -t " + TX_DEPTH + " "
                + Pairings.GUEST_ACK_TIMEOUT + " " + String.join(" ", mode.options()) + (guestExtra.isEmpty() ? "" : " " + String.join(" ", guestExtra));
        List<String> jrxe = new ArrayList<>(List.of(mode.test() + "-bw", "--addr", Lab.HOST6, "-F", "-n",
                String.valueOf(ITERATIONS), "-t", String.valueOf(TX_DEPTH)));
        jrxe.addAll(mode.options());
        jrxe.addAll(jrxeExtra);
        return pair(lab, server, port, guest, jrxe.toArray(String[]::new));
    }

    /** UD send latency, 512-byte datagrams. */
    @ParameterizedTest(name = "ib_send_lat -c UD, {0} serves")
    @EnumSource(Server.class)
    void udSendLatency(Server server, Lab lab) throws Exception {
        Pair p = pair(lab, server, 18690 + server.ordinal(), "ib_send_lat -d rxe0 -x " + lab.guestGid6() + " -F -c UD -s 512 -n "
                + ITERATIONS, "send-lat", "--addr", Lab.HOST6, "-F", "-c", "UD", "-s", "512", "-n", String.valueOf(ITERATIONS));
        assertBothSucceeded(p);
        assertThat(p.kernel().output()).as("%s", p.kernel()).containsPattern("(?m)^\\s*512\\s+" + ITERATIONS + "\\s+\\S+")
                .contains("Connection type : UD");
        Matcher m = Pattern.compile("(?m)^\\s*512\\s+" + ITERATIONS + "\\s+([\\d.]+)\\s+([\\d.]+)\\s+([\\d.]+)").matcher(p.jrxe().output());
        assertThat(m.find()).as("a latency row for 512 bytes x %d in %s", ITERATIONS, p.jrxe()).isTrue();
        assertThat(Double.parseDouble(m.group(1))).as("jrxe's t_min").isPositive().isLessThanOrEqualTo(Double.parseDouble(m.group(3)));
        assertSawEachOthersGid(p, Gids.IPV6);
    }

    /**
     * --out_json on both sides of a post-list run: jrxe's file is valid JSON and names the fields of the file perftest
     * 4.5 writes (which leaves the quotes out) in the same order, but the TX depth, which only the sending side writes.
     */
    @ParameterizedTest(name = "--out_json, {0} serves")
    @EnumSource(Server.class)
    void outJsonNamesPerftestsFields(Server server, Lab lab, @TempDir Path dir) throws Exception {
        Mode mode = MODES.getLast();
        Path mine = dir.resolve("jrxe.json");
        String theirs = "/tmp/perftest-modes-" + server.ordinal() + ".json";
        Pair p = pairBandwidth(lab, mode, server, 18692 + server.ordinal(), List.of("--out_json", "--out_json_file", theirs),
                List.of("--out_json", "--out_json_file", mine.toString()));
        assertBandwidth(p, mode.size(), mode.rowIterations(), server == Server.KERNEL, Gids.IPV6);
        String jrxeJson = Files.readString(mine);
        Job.Result valid = Job.start("python3 json", List.of("python3", "-c", "import json,sys; json.load(open(sys.argv[1]))",
                mine.toString())).await(Duration.ofSeconds(30));
        assertThat(valid.exitCode()).as("python3's json module reads jrxe's file: %s%n%s", valid, jrxeJson).isZero();
        Job.Result kernel = lab.guestNow("cat " + theirs, 30);
        assertThat(kernel.exitCode()).as("%s", kernel).isZero();
        List<String> jrxeKeys = keys(jrxeJson);
        List<String> perftestKeys = keys(kernel.output());
        System.out.printf("--out_json: jrxe's fields %s%n             perftest's %s%n", jrxeKeys, perftestKeys);
        // The two files are of the two sides: only the sender writes its TX depth.
        assertThat(jrxeKeys.contains("TX_depth")).as("TX_depth in the client's file only: %s", jrxeKeys)
                .isEqualTo(server == Server.KERNEL);
        assertThat(jrxeKeys).as("perftest's fields, in its order, in jrxe's file (perftest's:%n%s)", kernel.output())
                .containsSubsequence(perftestKeys.stream().filter(k -> !k.equals("TX_depth")).toList());
    }

    /** The keys of a perftest JSON file, quoted (25.01) or not (4.5), in order. */
    private static List<String> keys(String json) {
        return json.lines().map(String::strip).map(l -> l.replace("\"", ""))
                .filter(l -> l.matches("[A-Za-z_0-9. ]+\\s*:.*")).map(l -> l.substring(0, l.indexOf(':')).strip()).toList();
    }
}
