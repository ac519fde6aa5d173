package io.jrxe.tools.states;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.jrxe.tools.JrxeMain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** `jrxe states` run in-process through {@link JrxeMain#run}, its two NICs on 127.0.43.x. */
class StatesCommandTest {
    private static final String[] ADDRESSES = {"--addr-a", "127.0.43.11", "--addr-b", "127.0.43.12"};

    record Run(int exit, String out, String err) {
        List<String> lines() {
            return out.lines().toList();
        }
    }

    /** Runs `jrxe states` on 127.0.43.11 and .12 unless the arguments name addresses of their own. */
    static Run states(String... args) {
        List<String> argv = new ArrayList<>(List.of("states"));
        if (!List.of(args).contains("--addr-a")) {
            argv.addAll(List.of(ADDRESSES));
        }
        argv.addAll(List.of(args));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = JrxeMain.run(argv.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(exit, out.toString(), err.toString());
    }

    private static int indexOf(List<String> lines, String start) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(start)) {
                return i;
            }
        }
        throw new AssertionError("no line starts with \"" + start + "\"");
    }

    /** The line just after the heading {@code heading} whose value is named {@code name}. */
    private static String valueAfter(List<String> lines, String heading, String name) {
        for (int i = indexOf(lines, heading) + 1; i < lines.size() && lines.get(i).startsWith("    "); i++) {
            String line = lines.get(i).strip();
            if (line.startsWith(name + ": ")) {
                return line.substring(name.length() + 2);
            }
        }
        throw new AssertionError("no " + name + " under " + heading);
    }

    @Test
    void theTransitionsComeInOrderEachWithTheAttributesItRequires() {
        Run run = states();
        assertThat(run.exit()).as(run.out() + run.err()).isZero();
        List<String> lines = run.lines();
        int init = indexOf(lines, "[jrxe0] RESET -> INIT with every required attribute");
        int rtr = indexOf(lines, "[jrxe0] INIT -> RTR with every required attribute");
        int rts = indexOf(lines, "[jrxe0] RTR -> RTS with every required attribute");
        assertThat(init).isLessThan(rtr);
        assertThat(rtr).isLessThan(rts);
        assertThat(valueAfter(lines, "[jrxe0] RESET -> INIT with every", "required")).isEqualTo("ACCESS_FLAGS, PKEY_INDEX, PORT");
        assertThat(valueAfter(lines, "[jrxe0] INIT -> RTR with every", "required"))
                .isEqualTo("AV, PATH_MTU, RQ_PSN, MIN_RNR_TIMER, MAX_DEST_RD_ATOMIC, DEST_QPN");
        assertThat(valueAfter(lines, "[jrxe0] RTR -> RTS with every", "required"))
                .isEqualTo("TIMEOUT, RETRY_CNT, RNR_RETRY, MAX_QP_RD_ATOMIC, SQ_PSN");
        assertThat(valueAfter(lines, "[jrxe0] RESET -> INIT with every", "state now")).isEqualTo("INIT");
        assertThat(valueAfter(lines, "[jrxe0] INIT -> RTR with every", "state now")).isEqualTo("RTR");
        assertThat(valueAfter(lines, "[jrxe0] RTR -> RTS with every", "state now")).isEqualTo("RTS");
        // RTR's peer and PSNs are the other side's: jrxe1's first QP is 0x42, and each side's sq_psn is the other's rq_psn.
        assertThat(valueAfter(lines, "[jrxe0] INIT -> RTR with every", "dest_qp_num")).startsWith("0x000042 ");
        assertThat(valueAfter(lines, "[jrxe0] INIT -> RTR with every", "rq_psn")).startsWith("0x002000 ");
        assertThat(valueAfter(lines, "[jrxe0] RTR -> RTS with every", "sq_psn")).startsWith("0x001000 ");
        assertThat(lines.getLast()).isEqualTo("Every step behaved as described.");
    }

    @Test
    void eachTransitionTriedWithoutARequiredAttributeShowsTheVerbsLayersRefusalAndLeavesTheState() {
        List<String> lines = states().lines();
        assertThat(valueAfter(lines, "[jrxe0] RESET -> INIT without ACCESS_FLAGS", "result")).isEqualTo(
                "EINVAL (22): modify QP 0x000011 RESET -> INIT: RC requires ACCESS_FLAGS, PKEY_INDEX, PORT; missing ACCESS_FLAGS");
        assertThat(valueAfter(lines, "[jrxe0] RESET -> INIT without ACCESS_FLAGS", "attributes sent"))
                .isEqualTo("STATE, PKEY_INDEX, PORT");
        assertThat(valueAfter(lines, "[jrxe0] INIT -> RTR without AV", "result"))
                .startsWith("EINVAL (22): modify QP 0x000011 INIT -> RTR: ").endsWith("; missing AV");
        assertThat(valueAfter(lines, "[jrxe0] RTR -> RTS without SQ_PSN", "result"))
                .startsWith("EINVAL (22): modify QP 0x000011 RTR -> RTS: ").endsWith("; missing SQ_PSN");
        assertThat(lines.get(indexOf(lines, "[jrxe0] RESET -> INIT without") + 3)).contains("the QP stays in RESET");
        assertThat(lines.get(indexOf(lines, "[jrxe0] INIT -> RTR without") + 3)).contains("the QP stays in INIT");
    }

    @Test
    void aSendPostedInInitOrRtrIsRefusedWhileRtrAlreadyReceives() {
        List<String> lines = states().lines();
        assertThat(valueAfter(lines, "[jrxe0] ibv_post_send in INIT", "result"))
                .isEqualTo("EINVAL (22): work request 0 of the chain: QP 0x000011 is in INIT: post_send needs RTS (or SQD, SQE, ERR)");
        assertThat(valueAfter(lines, "[jrxe0] ibv_post_send in RTR", "result"))
                .startsWith("EINVAL (22): ").contains("is in RTR");
        assertThat(valueAfter(lines, "[jrxe0] ibv_post_recv in RTR", "receive completion")).isEqualTo("RECV SUCCESS, 32 bytes");
        assertThat(valueAfter(lines, "[jrxe0] ibv_post_recv in RTR", "state")).isEqualTo("RTR");
        assertThat(valueAfter(lines, "[jrxe0] ibv_post_send in RTS", "send completion")).isEqualTo("SEND SUCCESS");
    }

    @Test
    void theObjectsShowEachDevicesOwnQpNumbersAndKeysSplitIntoIndexAndVariant() {
        List<String> lines = states().lines();
        String lkeyA = valueAfter(lines, "[jrxe0] ibv_reg_mr", "lkey");
        String lkeyB = valueAfter(lines, "[jrxe1] ibv_reg_mr", "lkey");
        assertThat(lkeyA).isNotEqualTo(lkeyB);
        int keyB = Integer.decode(lkeyB);
        assertThat(valueAfter(lines, "[jrxe1] ibv_reg_mr", "key index")).isEqualTo(String.valueOf(keyB >>> 8));
        assertThat(valueAfter(lines, "[jrxe1] ibv_reg_mr", "key variant")).isEqualTo(String.format("0x%02x", keyB & 0xFF));
        assertThat(valueAfter(lines, "[jrxe0] ibv_create_qp", "qpn")).isEqualTo("0x000011");
        assertThat(valueAfter(lines, "[jrxe1] ibv_create_qp", "qpn")).isEqualTo("0x000042");
        assertThat(valueAfter(lines, "[jrxe0] ibv_create_qp", "state")).isEqualTo("RESET");
    }

    private static final Pattern REGISTERED = Pattern.compile(" {4}buffer bytes registered: (\\d+)");

    @Test
    void theSrqSceneBuildsBothConfigurationsAndTheSharedOneTakesLessMemory() {
        Run run = states("--srq-scene", "--connections", "5", "--receives", "3", "--receive-size", "1000", "--active", "2");
        assertThat(run.exit()).as(run.out() + run.err()).isZero();
        List<Long> registered = new ArrayList<>();
        for (String line : run.lines()) {
            Matcher m = REGISTERED.matcher(line);
            if (m.matches()) {
                registered.add(Long.parseLong(m.group(1)));
            }
        }
        assertThat(registered).containsExactly(5L * 3 * 1000, 2L * 3 * 1000);
        assertThat(valueAfter(run.lines(), "[jrxe0] One receive queue per QP", "receives posted")).isEqualTo("15");
        assertThat(valueAfter(run.lines(), "[jrxe0] One shared receive queue", "SRQ depth (max_wr)")).isEqualTo("6");
        assertThat(valueAfter(run.lines(), "[jrxe0] The difference", "saved")).isEqualTo(String.valueOf(15000 - 6000));
        assertThat(run.out()).doesNotContain("RESET -> INIT").doesNotContain("jrxe1");
    }

    @Test
    void twoRunsPrintTheSameText() {
        Run first = states();
        Run second = states();
        assertThat(first.exit()).isZero();
        assertThat(second.out()).isEqualTo(first.out());
    }

    @Test
    void theJsonHoldsTheSameStepsAsTheText() throws IOException {
        List<String> textTitles = new ArrayList<>();
        for (String line : states().lines()) {
            if (line.startsWith("[jrxe")) {
                textTitles.add(line.substring(line.indexOf("] ") + 2));
            }
        }
        Run json = states("--json");
        assertThat(json.exit()).isZero();
        assertThat(json.lines()).hasSize(1);
        List<String> jsonTitles = new ArrayList<>();
        String initResult = null;
        boolean asExpected = false;
        try (JsonParser p = new JsonFactory().createParser(json.out())) {
            String lastTitle = null;
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (t == JsonToken.FIELD_NAME && p.currentName().equals("title")) {
                    lastTitle = p.nextTextValue();
                    jsonTitles.add(lastTitle);
                } else if (t == JsonToken.FIELD_NAME && p.currentName().equals("result")
                        && lastTitle.startsWith("RESET -> INIT without")) {
                    initResult = p.nextTextValue();
                } else if (t == JsonToken.FIELD_NAME && p.currentName().equals("asExpected")) {
                    asExpected = p.nextBooleanValue();
                }
            }
        }
        // The text has one step with no side (the note that numbers are per device); the JSON has it too.
        assertThat(jsonTitles).containsAll(textTitles).hasSize(textTitles.size() + 1);
        assertThat(initResult).startsWith("EINVAL (22): ").endsWith("missing ACCESS_FLAGS");
        assertThat(asExpected).isTrue();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--connections 0|--connections must be 1..1024, not 0",
        "--active 9|--active must be 1..--connections (8), not 9",
        "--receive-size 0|--receive-size must be 1..1048576 bytes, not 0",
        "--receives 5000|--receives must be 1..4096, not 5000",
        "--connections 1024 --receives 4096 --receive-size 1048576|--connections x --receives x --receive-size is",
        "--addr-a nowhere|not an IP address: nowhere",
        "--connections lots|lots"})
    void aBadOptionIsOneLineAndExitOne(String args, String message) {
        Run run = states(args.split(" "));
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err().lines().toList()).hasSize(1);
        assertThat(run.err()).contains(message).doesNotContain("Exception").doesNotContain("\tat ");
    }
}
