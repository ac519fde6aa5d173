package io.jrxe.tools.mistakes;

import io.jrxe.tools.common.BadOptionAnswer;
import io.jrxe.tools.common.InProcess;
import io.jrxe.wire.dissect.StrictJson;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** `jrxe mistakes`: each classic mistake in its own numbered section, with the status, errno or event it causes. */
class MistakesCommandTest {
    private static InProcess run;

    @BeforeAll
    static void runAll() {
        run = InProcess.run("mistakes");
    }

    /** The lines of section {@code number}, from its title to the blank line after it. */
    private static String section(int number) {
        List<String> lines = new ArrayList<>();
        boolean in = false;
        for (String l : run.lines()) {
            if (l.startsWith(number + ". ")) {
                in = true;
            } else if (in && l.isBlank()) {
                break;
            }
            if (in) {
                lines.add(l);
            }
        }
        assertThat(lines).as("section " + number + " in\n" + run.out()).isNotEmpty();
        return String.join("\n", lines);
    }

    @Test
    void everyMistakeHasItsSectionInTheCoursesOrderAndBehavesAsExpected() {
        assertThat(run.status()).as(run.toString()).isZero();
        assertThat(run.out()).contains("Every mistake had the effect its section expects.").doesNotContain("UNEXPECTED");
        assertThat(run.lines().stream().filter(l -> l.matches("\\d+\\. .*")).map(l -> l.substring(l.lastIndexOf('[')))
                .toList()).containsExactly("[unregistered]", "[wrong-rkey]", "[unaligned]", "[num-sge]", "[cq-overflow]",
                "[rnr]", "[mtt-too-small]", "[freed]", "[missing-access]", "[pd-mismatch]", "[before-rts]");
        for (int i = 1; i <= 11; i++) {
            assertThat(section(i)).contains("  did ", "  packets ", "  result ", "  rule ", "  fix ", "  ok ");
        }
    }

    @Test
    void unregisteredMemoryIsALocalProtectionErrorWithNoPacket() {
        assertThat(section(1)).contains("packets   none:", "status=LOC_PROT_ERR", "vendor_err=7 (the range is outside the MR/MW)",
                "QP state: jrxe0 ERR");
    }

    @Test
    void aWrongRkeyIsNakedAndTheResponderSaysWhichKey() {
        String s = section(2);
        java.util.regex.Matcher keys = java.util.regex.Pattern.compile("MR has rkey (0x[0-9a-f]{8});.* with rkey (0x[0-9a-f]{8})")
                .matcher(s);
        assertThat(keys.find()).as(s).isTrue();
        assertThat(keys.group(2)).isNotEqualTo(keys.group(1));
        assertThat(s).contains("RDMA_WRITE_ONLY", "rkey=" + keys.group(2), "AETH NAK remote access error",
                "status=REM_ACCESS_ERR", "vendor_err=2", "QP_ACCESS_ERR", "R_Key " + keys.group(2));
    }

    @Test
    void anUnalignedBufferWorksAndCostsAnMttEntry() {
        assertThat(section(3)).containsPattern("MTT\\[\\d+] = page 0x[0-9a-f]+ \\+ 0x064")
                .contains("status=SUCCESS", "3 MTT entries where a page-aligned buffer of 8192 bytes takes 2",
                        "copied 4 pieces");
    }

    @Test
    void tooManySgesAreRefusedByPostSend() {
        assertThat(section(4)).contains("errno EINVAL (22)", "max_send_sge 2", "packets   none:", "QP state RTS");
    }

    @Test
    void aCqNobodyPollsOverflows() {
        assertThat(section(5)).contains("CQ_ERR", "completion queue overflow", "finds 4 completion(s) for 8 signaled WRs",
                "QP state: jrxe0 ERR");
    }

    @Test
    void noReceiveMeansRnrNaksUntilTheRetriesRunOut() {
        String s = section(6);
        assertThat(s.lines().filter(l -> l.contains("RNR NAK timer=1")).count()).isEqualTo(3);
        assertThat(s).contains("status=RNR_RETRY_EXC_ERR", "rcvd_rnr_err=3");
    }

    @Test
    void aRegistrationLargerThanTheMttIsEnomem() {
        assertThat(section(7)).contains("errno ENOMEM (12)", "needs 256 MTT entries", "packets   none:");
    }

    @Test
    void freedMemoryIsAStaleKeyOrARemoteAccessErrorNeverAnEngineError() {
        assertThat(section(8)).contains("(a) none:", "status=LOC_PROT_ERR", "vendor_err=2 (the key's index was handed out on this device, but no MR or MW there now has the key's variant",
                "(b) completion on jrxe0: wr_id=1 status=REM_ACCESS_ERR", "the MR's memory was freed",
                "jrxe_engine_errors=0");
    }

    @Test
    void aWriteTheMrDoesNotAllowIsNakedWithTheRightKeyButNotTheRight() {
        assertThat(section(9)).contains("LOCAL_WRITE | REMOTE_READ, no REMOTE_WRITE", "NAK remote access error",
                "status=REM_ACCESS_ERR", "the MR/MW does not grant the access asked for", "QP states: jrxe0 ERR, jrxe1 ERR");
    }

    @Test
    void anLkeyOfAnotherPdIsALocalProtectionErrorWithNoPacket() {
        assertThat(section(10)).contains("packets   none:", "status=LOC_PROT_ERR",
                "vendor_err=5 (the key belongs to another protection domain)", "QP state: jrxe0 ERR");
    }

    @Test
    void aSendBeforeRtsIsRefusedWithEinvalAndChangesNothing() {
        assertThat(section(11)).contains("packets   none:", "post_send failed: errno EINVAL (22)", "is in INIT",
                "QP state: INIT (a refused post changes nothing)");
    }

    @Test
    void onlyRunsTheNamedMistakesUnderTheirNumbers() {
        InProcess r = InProcess.run("mistakes", "--only", "rnr,num-sge");
        assertThat(r.status()).as(r.toString()).isZero();
        assertThat(r.lines().stream().filter(l -> l.matches("\\d\\. .*")).map(l -> l.substring(0, 2)).toList())
                .containsExactly("4.", "6.");
    }

    /**
     * Each mistake's packets go to the capture, the mistakes one after another in the file's time: the wrong rkey's
     * WRITE and NAK first, then, a second or more later, the RNR mistake's SENDs and RNR NAKs.
     */
    @Test
    void theMistakesPacketsGoToOneCaptureInTheOrderTheyWereMade(@TempDir Path dir) {
        Path file = dir.resolve("mistakes.pcapng");
        InProcess r = InProcess.run("mistakes", "--only", "wrong-rkey,rnr", "--capture", file.toString());
        assertThat(r.status()).as(r.toString()).isZero();
        assertThat(r.out()).contains("Capture: " + file, "./jrxe view " + file);
        InProcess decoded = InProcess.run("decode", "--json", file.toString());
        assertThat(decoded.status()).as(decoded.toString()).isZero();
        List<Map<String, Object>> packets = decoded.lines().stream().filter(l -> l.startsWith("{"))
                .map(StrictJson::parseObject).toList();
        List<String> names = packets.stream().map(p -> (String) p.get("opcode_name")).toList();
        int firstSend = names.indexOf("RC SEND_ONLY");
        assertThat(names.subList(0, firstSend)).containsExactly("RC RDMA_WRITE_ONLY", "RC RDMA_WRITE_ONLY",
                "RC ACKNOWLEDGE", "RC ACKNOWLEDGE");
        assertThat(names.subList(firstSend, names.size())).containsOnly("RC SEND_ONLY", "RC ACKNOWLEDGE").hasSizeGreaterThan(4);
        double lastOfFirst = ((Number) packets.get(firstSend - 1).get("time")).doubleValue();
        double firstOfSecond = ((Number) packets.get(firstSend).get("time")).doubleValue();
        assertThat(firstOfSecond - lastOfFirst).as("the gap between two mistakes, in seconds").isGreaterThanOrEqualTo(1.0);
        for (int i = 1; i < packets.size(); i++) {
            assertThat(((Number) packets.get(i).get("time")).doubleValue())
                    .isGreaterThanOrEqualTo(((Number) packets.get(i - 1).get("time")).doubleValue());
        }
    }

    @Test
    void anUnknownMistakeIsOneLine() {
        BadOptionAnswer.check(InProcess.run("mistakes", "--only", "typo"), "mistakes", "--only typo", "unregistered");
    }
}
