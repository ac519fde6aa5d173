package io.jrxe.tools.decode;

import io.jrxe.tools.common.BadOptionAnswer;
import io.jrxe.tools.JrxeMain;
import io.jrxe.wire.capture.GoldenCaptures;
import io.jrxe.wire.capture.PcapngWriter;
import io.jrxe.wire.capture.Tshark;
import io.jrxe.wire.dissect.StrictJson;
import io.jrxe.wire.framing.LinkType;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.testing.SamplePackets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `jrxe decode` run in-process through {@link JrxeMain#run}: its totals, exit statuses, the three
 * output formats and its errors, judged against a count that shares no code with jrxe, against
 * tshark, and against packets whose every header byte the test chose.
 */
class DecodeCommandTest {
    private static final Pattern TOTALS = Pattern.compile("packets=(\\d+) roce=(\\d+) icrc_ok=(\\d+) icrc_bad=(\\d+) other=(\\d+)");
    private static final String[] BTH_FIELD_NAMES = {"opcode", "solicited event", "migreq", "pad count",
        "transport version", "P_Key", "FECN", "BECN", "reserved", "destination QP", "ack request", "PSN"};

    record Run(int exit, String out, String err) {
        List<String> outLines() {
            return out.lines().toList();
        }

        List<String> errLines() {
            return err.lines().toList();
        }

        String lastOutLine() {
            List<String> lines = outLines();
            return lines.isEmpty() ? "" : lines.getLast();
        }
    }

    static Run decode(Object... args) {
        String[] argv = new String[args.length + 1];
        argv[0] = "decode";
        for (int i = 0; i < args.length; i++) {
            argv[i + 1] = args[i].toString();
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        PrintWriter outWriter = new PrintWriter(out);
        PrintWriter errWriter = new PrintWriter(err);
        int exit = JrxeMain.run(argv, outWriter, errWriter);
        outWriter.flush();
        errWriter.flush();
        return new Run(exit, out.toString(), err.toString());
    }

    static String totals(long packets, long roce, long ok, long bad, long other) {
        return "packets=" + packets + " roce=" + roce + " icrc_ok=" + ok + " icrc_bad=" + bad + " other=" + other;
    }

    /** The data-path captures and the RDMA CM ones (DecodeCmTest looks into the latter's MADs). */
    static List<Path> goldenFiles() {
        return GoldenCaptures.allFiles();
    }

    // ---- totals and exit status on real rxe traffic ----

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldenFiles")
    void goldenTotalsEqualAnIndependentCount(Path file) {
        List<byte[]> frames = IndependentPcap.frames(file);
        long roce = frames.stream().filter(f -> IndependentPcap.udpDestinationPort(f) == 4791).count();
        long ok = frames.stream().filter(f -> IndependentPcap.udpDestinationPort(f) == 4791 && IndependentPcap.icrcOk(f)).count();
        assertThat(ok).as("every golden ICRC is valid (testdata/rxe/README.md)").isEqualTo(roce).isEqualTo(frames.size());

        Run run = decode(file);
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
        List<String> lines = run.outLines();
        assertThat(lines).hasSize(frames.size() + 1);
        assertThat(lines.getLast()).isEqualTo(totals(frames.size(), roce, ok, roce - ok, frames.size() - roce));
        assertThat(lines.stream().filter(l -> TOTALS.matcher(l).find())).as("exactly one totals line").hasSize(1);
        for (int i = 0; i < frames.size(); i++) {
            assertThat(lines.get(i)).as("summary line of frame %d", i + 1).matches("\\s*" + (i + 1) + "  .*icrc=ok");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldenFiles")
    void goldenTotalsAgreeWithTshark(Path file) {
        Tshark.assumeInstalled();
        List<List<String>> rows = Tshark.fields(file, "frame.number", "udp.dstport");
        long roce = rows.stream().filter(r -> r.get(1).equals("4791")).count();
        assertThat(roce).isPositive();
        assertThat(decode(file).lastOutLine()).isEqualTo(totals(rows.size(), roce, roce, 0, rows.size() - roce));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldenFiles")
    void verifyIcrcOnGoldenCapturesExitsZero(Path file) {
        for (String view : new String[] {"--verify-icrc", "-V"}) {
            Run run = view.equals("-V") ? decode("--verify-icrc", "-V", file) : decode("--verify-icrc", file);
            assertThat(run.exit()).as(view + ": " + run.err()).isZero();
            assertThat(run.out()).doesNotContain("BAD", "MALFORMED");
            assertThat(TOTALS.matcher(run.lastOutLine()).matches()).as(run.lastOutLine()).isTrue();
        }
    }

    // ---- a capture with one corrupted packet ----

    /** Five jrxe-framed packets; frame 4 has one payload bit flipped after its ICRC was computed. */
    private static Path captureWithOneBadIcrc(Path dir) {
        Random random = new Random(42);
        List<byte[]> frames = new ArrayList<>();
        frames.add(SamplePackets.frame(SamplePackets.roce(Opcode.RC_SEND_ONLY, 100, random), "10.0.0.1", "10.0.0.2", 49152, 1));
        frames.add(SamplePackets.frame(SamplePackets.roce(Opcode.RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE, 33, random),
                "10.0.0.1", "10.0.0.2", 49152, 2));
        frames.add(SamplePackets.frame(SamplePackets.roce(Opcode.RC_SEND_ONLY_WITH_INVALIDATE, 8, random),
                "fd77::2", "fd77::3", 49153, 0));
        byte[] bad = SamplePackets.frame(SamplePackets.roce(Opcode.RC_SEND_ONLY, 64, random), "10.0.0.1", "10.0.0.2", 49152, 3);
        bad[14 + 20 + 8 + 12 + 10] ^= 0x04; // a payload byte
        frames.add(bad);
        frames.add(SamplePackets.frame(SamplePackets.roce(Opcode.UD_SEND_ONLY_WITH_IMMEDIATE, 5, random),
                "fd77::3", "fd77::2", 49154, 0));
        return write(dir.resolve("one-bad.pcapng"), LinkType.ETHERNET, frames);
    }

    @Test
    void flippedPayloadBitIsBadAndFailsVerification(@TempDir Path dir) {
        Path capture = captureWithOneBadIcrc(dir);
        String expectedTotals = totals(5, 5, 4, 1, 0);

        Run verify = decode("--verify-icrc", capture);
        assertThat(verify.exit()).as(verify.err()).isEqualTo(1);
        List<String> lines = verify.outLines();
        assertThat(lines).hasSize(6);
        assertThat(lines.getLast()).isEqualTo(expectedTotals);
        for (int i = 0; i < 5; i++) {
            if (i == 3) {
                assertThat(lines.get(i)).as("frame 4").matches("\\s*4  .*RC SEND_ONLY.*icrc=BAD.*").doesNotContain("MALFORMED");
            } else {
                assertThat(lines.get(i)).as("frame %d", i + 1).contains("icrc=ok").doesNotContain("BAD");
            }
        }

        Run plain = decode(capture);
        assertThat(plain.exit()).as("without --verify-icrc a bad ICRC is reported, not an error").isZero();
        assertThat(plain.outLines().get(3)).contains("BAD");
        assertThat(plain.lastOutLine()).isEqualTo(expectedTotals);

        Run json = decode("--json", "--verify-icrc", capture);
        assertThat(json.exit()).isEqualTo(1);
        assertThat(json.errLines()).containsExactly(expectedTotals);
        List<Map<String, Object>> objects = json.outLines().stream().map(StrictJson::parseObject).toList();
        assertThat(objects).hasSize(5);
        for (int i = 0; i < 5; i++) {
            assertThat(objects.get(i).get("icrc_ok")).as("frame %d", i + 1).isEqualTo(i != 3);
        }

        Run detail = decode("-V", "--verify-icrc", capture);
        assertThat(detail.exit()).isEqualTo(1);
        List<String> paragraphs = paragraphs(detail.out());
        assertThat(paragraphs).hasSize(5);
        assertThat(paragraphs.get(3)).startsWith("Frame 4:").contains("BAD");
        assertThat(paragraphs.get(2)).doesNotContain("BAD");
        assertThat(detail.lastOutLine()).isEqualTo(expectedTotals);
    }

    // ---- JSON ----

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldenFiles")
    void jsonIsOneStrictObjectPerPacketAndTotalsGoToStderr(Path file) {
        int frames = IndependentPcap.frames(file).size();
        Run run = decode("--json", file);
        assertThat(run.exit()).isZero();
        assertThat(run.errLines()).containsExactly(totals(frames, frames, frames, 0, 0));
        List<String> lines = run.outLines();
        assertThat(lines).hasSize(frames);
        for (int i = 0; i < lines.size(); i++) {
            Map<String, Object> o = StrictJson.parseObject(lines.get(i));
            assertThat(o).as("frame %d", i + 1).containsKeys("frame", "src", "dst", "sport", "dport", "opcode",
                    "opcode_name", "dest_qpn", "psn", "ack_req", "icrc_ok");
            assertThat(o.get("frame")).isEqualTo(new BigDecimal(i + 1));
            assertThat(o.get("dport")).isEqualTo(new BigDecimal(4791));
            assertThat(o.get("icrc_ok")).isEqualTo(true);
            assertThat(o.get("opcode_name")).isInstanceOf(String.class);
            assertThat(o.get("ack_req")).isInstanceOf(Boolean.class);
        }
    }

    private static final String[] TSHARK_FIELDS = {
        "ip.src", "ipv6.src", "ip.dst", "ipv6.dst", "udp.srcport", "udp.dstport", "infiniband.bth.opcode",
        "_ws.col.Info", "infiniband.bth.destqp", "infiniband.bth.psn", "infiniband.bth.a",
        "infiniband.reth.va", "infiniband.reth.r_key", "infiniband.reth.dmalen",
        "infiniband.aeth.syndrome", "infiniband.aeth.msn", "infiniband.deth.q_key", "infiniband.deth.srcqp",
        "infiniband.atomiceth.swapdt", "infiniband.atomiceth.cmpdt", "infiniband.atomicacketh.origremdt",
    };

    /**
     * Every key of every golden data-path packet, and every extension header's fields, equal what tshark decodes
     * (the CM captures' MADs are compared in DecodeCmTest: tshark's Info column names a CM message, not a QP).
     */
    @Test
    void jsonFieldsOfGoldenPacketsEqualTsharks() {
        Tshark.assumeInstalled();
        Set<String> extensionsSeen = new HashSet<>();
        for (Path file : GoldenCaptures.files()) {
            List<List<String>> rows = Tshark.fields(file, TSHARK_FIELDS);
            Run run = decode("--json", file);
            assertThat(run.exit()).isZero();
            List<String> lines = run.outLines();
            assertThat(lines).hasSameSizeAs(rows);
            for (int i = 0; i < rows.size(); i++) {
                String where = file.getFileName() + " frame " + (i + 1);
                Map<String, String> t = new java.util.HashMap<>();
                for (int f = 0; f < TSHARK_FIELDS.length; f++) {
                    String value = rows.get(i).get(f);
                    // Some fields appear twice in tshark's tree; the first occurrence is the header's.
                    t.put(TSHARK_FIELDS[f], TSHARK_FIELDS[f].equals("_ws.col.Info") ? value : value.split(",")[0]);
                }
                Map<String, Object> o = StrictJson.parseObject(lines.get(i));
                extensionsSeen.addAll(checkAgainstTshark(o, t, where));
            }
        }
        assertThat(extensionsSeen).as("the golden captures hold every header the brief names")
                .containsExactlyInAnyOrder("reth", "aeth", "deth", "atomiceth", "atomicacketh");
    }

    private static Set<String> checkAgainstTshark(Map<String, Object> o, Map<String, String> t, String where) {
        String src = t.get("ip.src").isEmpty() ? t.get("ipv6.src") : t.get("ip.src");
        String dst = t.get("ip.dst").isEmpty() ? t.get("ipv6.dst") : t.get("ip.dst");
        assertThat(o.get("src")).as(where + " src").isEqualTo(src);
        assertThat(o.get("dst")).as(where + " dst").isEqualTo(dst);
        assertNumber(o, "sport", t.get("udp.srcport"), where);
        assertNumber(o, "dport", t.get("udp.dstport"), where);
        assertNumber(o, "opcode", t.get("infiniband.bth.opcode"), where);
        assertNumber(o, "dest_qpn", t.get("infiniband.bth.destqp"), where);
        assertNumber(o, "psn", t.get("infiniband.bth.psn"), where);
        assertThat(o.get("ack_req")).as(where + " ack_req").isEqualTo(flag(t.get("infiniband.bth.a")));
        // tshark's Info column starts with the opcode's name: "RC RDMA Write First QP=0x000013".
        String info = t.get("_ws.col.Info");
        assertThat(letters(info.substring(0, info.indexOf(" QP=")))).as(where + " opcode_name " + info)
                .isEqualTo(letters((String) o.get("opcode_name")));

        Set<String> seen = new HashSet<>();
        int opcode = Integer.decode(t.get("infiniband.bth.opcode"));
        boolean atomic = opcode == 0x13 || opcode == 0x14;
        if (!t.get("infiniband.reth.va").isEmpty() && !atomic) {
            seen.add("reth");
            assertNumber(o, "reth.va", t.get("infiniband.reth.va"), where);
            assertNumber(o, "reth.rkey", t.get("infiniband.reth.r_key"), where);
            assertNumber(o, "reth.dma_len", t.get("infiniband.reth.dmalen"), where);
        } else {
            assertThat(o).as(where).doesNotContainKey("reth");
        }
        if (atomic) {
            // tshark 4.0 files the AtomicETH's address and key under the RETH's field names.
            seen.add("atomiceth");
            assertNumber(o, "atomiceth.va", t.get("infiniband.reth.va"), where);
            assertNumber(o, "atomiceth.rkey", t.get("infiniband.reth.r_key"), where);
            assertNumber(o, "atomiceth.swap_add", t.get("infiniband.atomiceth.swapdt"), where);
            assertNumber(o, "atomiceth.compare", t.get("infiniband.atomiceth.cmpdt"), where);
        } else {
            assertThat(o).as(where).doesNotContainKey("atomiceth");
        }
        if (!t.get("infiniband.aeth.syndrome").isEmpty()) {
            seen.add("aeth");
            assertNumber(o, "aeth.syndrome", t.get("infiniband.aeth.syndrome"), where);
            assertNumber(o, "aeth.msn", t.get("infiniband.aeth.msn"), where);
        } else {
            assertThat(o).as(where).doesNotContainKey("aeth");
        }
        if (!t.get("infiniband.deth.q_key").isEmpty()) {
            seen.add("deth");
            assertNumber(o, "deth.qkey", t.get("infiniband.deth.q_key"), where);
            assertNumber(o, "deth.src_qpn", t.get("infiniband.deth.srcqp"), where);
        } else {
            assertThat(o).as(where).doesNotContainKey("deth");
        }
        if (!t.get("infiniband.atomicacketh.origremdt").isEmpty()) {
            seen.add("atomicacketh");
            assertNumber(o, "atomicacketh.orig", t.get("infiniband.atomicacketh.origremdt"), where);
        } else {
            assertThat(o).as(where).doesNotContainKey("atomicacketh");
        }
        return seen;
    }

    /** ImmDt and IETH are in no golden capture: these packets carry them, with values the test chose. */
    private record ImmediateCase(Opcode opcode, int at, String ip) {
    }

    // opcode, where its ImmDt or IETH starts after the BTH (IBTA 9.2: DETH and RETH come first)
    private static final List<ImmediateCase> IMMEDIATE_CASES = List.of(
            new ImmediateCase(Opcode.RC_SEND_ONLY_WITH_IMMEDIATE, 12, "10.0.0.1"),
            new ImmediateCase(Opcode.RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE, 12 + 16, "10.0.0.1"),
            new ImmediateCase(Opcode.UD_SEND_ONLY_WITH_IMMEDIATE, 12 + 8, "fd77::2"),
            new ImmediateCase(Opcode.RC_SEND_LAST_WITH_INVALIDATE, 12, "fd77::2"),
            new ImmediateCase(Opcode.RC_SEND_ONLY_WITH_INVALIDATE, 12, "10.0.0.1"));

    /** Writes one packet per case and returns the 32-bit value each carries in its ImmDt or IETH. */
    private static List<Long> writeImmediateCases(Path capture) {
        Random random = new Random(7);
        List<byte[]> frames = new ArrayList<>();
        List<Long> values = new ArrayList<>();
        for (ImmediateCase c : IMMEDIATE_CASES) {
            byte[] roce = SamplePackets.roce(c.opcode(), 20, random);
            // A value with the top bit set: it must come out unsigned.
            ByteBuffer.wrap(roce).putInt(c.at(), 0x80000000 | random.nextInt());
            values.add(Integer.toUnsignedLong(ByteBuffer.wrap(roce).getInt(c.at())));
            frames.add(SamplePackets.frame(roce, c.ip(), c.ip().contains(":") ? "fd77::3" : "10.0.0.2", 49152, 9));
        }
        write(capture, LinkType.ETHERNET, frames);
        return values;
    }

    @Test
    void jsonCarriesImmediateDataAndInvalidateKeys(@TempDir Path dir) {
        Path capture = dir.resolve("imm.pcapng");
        List<Long> values = writeImmediateCases(capture);
        Run run = decode("--json", "--verify-icrc", capture);
        assertThat(run.exit()).as(run.err()).isZero();
        List<String> lines = run.outLines();
        assertThat(lines).hasSize(IMMEDIATE_CASES.size());
        for (int i = 0; i < IMMEDIATE_CASES.size(); i++) {
            Map<String, Object> o = StrictJson.parseObject(lines.get(i));
            Opcode opcode = IMMEDIATE_CASES.get(i).opcode();
            String where = opcode.toString();
            assertNumber(o, "opcode", String.valueOf(opcode.code()), where);
            if (opcode.hasImmediate()) {
                assertThat(o.get("immdt")).as(where + " immdt is a top-level number").isInstanceOf(BigDecimal.class);
                assertNumber(o, "immdt", values.get(i).toString(), where);
                assertThat(o).as(where).doesNotContainKey("ieth");
            } else {
                assertNumber(o, "ieth.rkey", values.get(i).toString(), where);
                assertThat(o).as(where).doesNotContainKey("immdt");
            }
            assertThat(o.containsKey("reth")).as(where + " has a RETH").isEqualTo(opcode == Opcode.RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE);
            assertThat(o.containsKey("deth")).as(where + " has a DETH").isEqualTo(opcode == Opcode.UD_SEND_ONLY_WITH_IMMEDIATE);
        }
    }

    /** The packets above are what the test meant them to be: tshark reads the same four bytes there. */
    @Test
    void immediateDataAndInvalidateKeysAgreeWithTshark(@TempDir Path dir) {
        Tshark.assumeInstalled();
        Path capture = dir.resolve("imm.pcapng");
        List<Long> values = writeImmediateCases(capture);
        List<List<String>> rows = Tshark.fields(capture, "infiniband.immdt", "infiniband.ieth");
        assertThat(rows).hasSameSizeAs(IMMEDIATE_CASES);
        for (int i = 0; i < IMMEDIATE_CASES.size(); i++) {
            Opcode opcode = IMMEDIATE_CASES.get(i).opcode();
            String field = rows.get(i).get(opcode.hasImmediate() ? 0 : 1).split(",")[0].replace(":", "");
            assertThat(Long.parseLong(field, 16)).as(opcode + " per tshark").isEqualTo(values.get(i));
        }
    }

    // ---- the detail view ----

    @Test
    void detailViewNamesEveryBthFieldAndTheAethSyndromeInWords() {
        Path file = GoldenCaptures.file("guest_pingpong.pcap");
        Run run = decode("-V", file);
        assertThat(run.exit()).isZero();
        List<String> paragraphs = paragraphs(run.out());
        assertThat(paragraphs).hasSize(100);
        for (String paragraph : paragraphs) {
            assertThat(paragraph).contains(BTH_FIELD_NAMES).contains("ICRC", "(correct)");
        }
        // The 20 ACKs: rxe sends credit count 0x1F, "no end-to-end flow control".
        long acks = paragraphs.stream().filter(p -> p.contains("(RC ACKNOWLEDGE)")).count();
        assertThat(acks).isEqualTo(20);
        assertThat(paragraphs.stream().filter(p -> p.contains("(RC ACKNOWLEDGE)")))
                .allSatisfy(p -> assertThat(p).containsPattern("AETH\\s+syndrome 0x1f \\(ACK credits=invalid\\)\\s+MSN \\d+"));
        assertThat(run.lastOutLine()).isEqualTo(totals(100, 100, 100, 0, 0));
    }

    @Test
    void detailViewSpellsOutNakAndRnrNakSyndromes(@TempDir Path dir) {
        Random random = new Random(3);
        int[] syndromes = {0x00, 0x2E, 0x60, 0x62, 0x63, 0x61, 0x64};
        String[] words = {"ACK credits=0", "RNR NAK timer=14 (1.28 ms)", "NAK PSN sequence error", "NAK remote access error",
            "NAK remote operational error", "NAK invalid request", "NAK invalid RD request"};
        List<byte[]> frames = new ArrayList<>();
        for (int syndrome : syndromes) {
            byte[] roce = SamplePackets.roce(Opcode.RC_ACKNOWLEDGE, 0, random);
            roce[12] = (byte) syndrome;
            frames.add(SamplePackets.frame(roce, "10.0.0.2", "10.0.0.1", 49152, 1));
        }
        Run run = decode("-V", write(dir.resolve("naks.pcapng"), LinkType.ETHERNET, frames));
        List<String> paragraphs = paragraphs(run.out());
        assertThat(paragraphs).hasSize(syndromes.length);
        for (int i = 0; i < syndromes.length; i++) {
            assertThat(paragraphs.get(i)).contains(String.format("syndrome 0x%02x (%s)", syndromes[i], words[i]));
        }
    }

    // ---- packets that are not what they claim ----

    @Test
    void malformedPacketsAreReportedWithTheirReasonNotAsErrors(@TempDir Path dir) {
        Random random = new Random(11);
        List<byte[]> frames = new ArrayList<>();
        frames.add(SamplePackets.frame(SamplePackets.roce(Opcode.RC_SEND_ONLY, 40, random), "10.0.0.1", "10.0.0.2", 49152, 1));
        frames.add(SamplePackets.frame(roce(Opcode.RC_RDMA_WRITE_FIRST.code(), 20, random), "10.0.0.1", "10.0.0.2", 49152, 2));
        frames.add(SamplePackets.frame(roce(0x15, 32, random), "fd77::2", "fd77::3", 49152, 0));
        // A UDP datagram to 4791 with 10 bytes: no room for a BTH and an ICRC, so no ICRC to check.
        byte[] runt = Arrays.copyOf(SamplePackets.frame(roce(0x04, 16, random), "10.0.0.1", "10.0.0.2", 49152, 3), 14 + 20 + 8 + 10);
        putShort(runt, 14 + 2, 20 + 8 + 10);
        putShort(runt, 14 + 20 + 4, 8 + 10);
        frames.add(runt);
        byte[] tcp = SamplePackets.frame(SamplePackets.roce(Opcode.RC_SEND_ONLY, 40, random), "10.0.0.1", "10.0.0.2", 49152, 4);
        tcp[14 + 9] = 6;
        frames.add(tcp);
        Path capture = write(dir.resolve("malformed.pcapng"), LinkType.ETHERNET, frames);

        Run run = decode(capture);
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
        List<String> lines = run.outLines();
        assertThat(lines).hasSize(6);
        assertThat(lines.get(0)).contains("RC SEND_ONLY", "icrc=ok").doesNotContain("MALFORMED");
        assertThat(lines.get(1)).contains("MALFORMED: RC RDMA_WRITE_FIRST needs 28 header bytes and a 4-byte ICRC, "
                + "but the packet has 20 bytes");
        assertThat(lines.get(2)).contains("[fd77::2]:49152 -> [fd77::3]:4791", "MALFORMED: unknown opcode 0x15");
        assertThat(lines.get(3)).contains("MALFORMED: UDP payload of 10 bytes is too short for a BTH and an ICRC");
        assertThat(lines.get(4)).contains("not RoCEv2");
        assertThat(lines.get(5)).isEqualTo(totals(5, 4, 3, 1, 1));

        Run verify = decode("--verify-icrc", capture);
        assertThat(verify.exit()).as("the runt's ICRC could not be checked").isEqualTo(1);

        Run json = decode("--json", capture);
        List<Map<String, Object>> objects = json.outLines().stream().map(StrictJson::parseObject).toList();
        assertThat(objects).hasSize(5);
        assertThat(objects.get(1).get("malformed")).asString().startsWith("RC RDMA_WRITE_FIRST needs 28 header bytes");
        assertThat(objects.get(2).get("opcode_name")).isEqualTo("unknown");
        assertThat(objects.get(4).get("kind")).isEqualTo("other");

        Run detail = decode("-V", capture);
        assertThat(paragraphs(detail.out()).get(2)).contains("opcode 0x15 (unknown)", "MALFORMED unknown opcode 0x15");
    }

    /** Packets cut by a capture's snapshot length are still RoCE packets (tshark agrees); their ICRC cannot be checked. */
    @Test
    void packetsCutBySnapshotLengthCountAsRoceWithUncheckableIcrc(@TempDir Path dir) {
        Random random = new Random(13);
        List<byte[]> frames = List.of(
                SamplePackets.frame(SamplePackets.roce(Opcode.RC_SEND_ONLY, 4, random), "10.0.0.1", "10.0.0.2", 49152, 1),
                SamplePackets.frame(SamplePackets.roce(Opcode.RC_SEND_ONLY, 200, random), "10.0.0.1", "10.0.0.2", 49152, 2),
                SamplePackets.frame(SamplePackets.roce(Opcode.RC_RDMA_WRITE_FIRST, 200, random), "fd77::2", "fd77::3", 49152, 0));
        Path capture = dir.resolve("snap.pcapng");
        try (PcapngWriter writer = new PcapngWriter(capture)) {
            int id = writer.addInterface("snap96", LinkType.ETHERNET, 96);
            for (byte[] frame : frames) {
                writer.write(id, 1_700_000_000_000_000_000L, frame, 0, frame.length, null);
            }
        }
        Run run = decode("--verify-icrc", capture);
        assertThat(run.exit()).isEqualTo(1);
        List<String> lines = run.outLines();
        assertThat(lines.get(0)).contains("icrc=ok");
        assertThat(lines.get(1)).contains("10.0.0.1:49152 -> 10.0.0.2:4791", "MALFORMED: IP packet of 244 bytes, but only 82 captured");
        assertThat(lines.get(2)).contains("[fd77::2]:49152 -> [fd77::3]:4791", "MALFORMED: IP packet of ");
        assertThat(lines.getLast()).isEqualTo(totals(3, 3, 1, 2, 0));

        Tshark.assumeInstalled();
        assertThat(Tshark.fields(capture, "udp.dstport")).as("tshark sees three packets to 4791")
                .containsExactly(List.of("4791"), List.of("4791"), List.of("4791"));
    }

    // ---- input that is not a readable capture ----

    @Test
    void unreadableInputIsOneLineOnStderrAndExitTwo(@TempDir Path dir) throws IOException {
        Path golden = GoldenCaptures.file("guest_pingpong.pcap");
        byte[] bytes = Files.readAllBytes(golden);
        Path text = Files.writeString(dir.resolve("notes.txt"), "these are not packets\n".repeat(20));
        Path empty = Files.createFile(dir.resolve("empty.pcap"));
        Path cutInRecordHeader = Files.write(dir.resolve("cut30.pcap"), Arrays.copyOf(bytes, 30));
        Path cutInFrame = Files.write(dir.resolve("cut100.pcap"), Arrays.copyOf(bytes, 100));
        Path cutLater = Files.write(dir.resolve("cut3000.pcap"), Arrays.copyOf(bytes, 3000));
        Path cutInFileHeader = Files.write(dir.resolve("cut10.pcap"), Arrays.copyOf(bytes, 10));
        Path pcapng = write(dir.resolve("whole.pcapng"), LinkType.ETHERNET,
                List.of(SamplePackets.frame(SamplePackets.roce(Opcode.RC_SEND_ONLY, 200, new Random(1)), "10.0.0.1", "10.0.0.2", 49152, 1)));
        byte[] ng = Files.readAllBytes(pcapng);
        Path pcapngCut = Files.write(dir.resolve("cut.pcapng"), Arrays.copyOf(ng, ng.length - 50));

        Map<Path, String> expected = Map.of(
                dir.resolve("missing.pcap"), "no such file",
                text, "not a pcap or pcapng capture",
                empty, "empty",
                cutInRecordHeader, "truncated",
                cutInFrame, "truncated",
                cutLater, "truncated",
                cutInFileHeader, "not a pcap or pcapng capture",
                pcapngCut, "truncated",
                dir, "directory");
        for (var e : expected.entrySet()) {
            for (String[] options : new String[][] {{}, {"--json"}, {"-V"}, {"--verify-icrc"}}) {
                Object[] args = Arrays.copyOf(options, options.length + 1, Object[].class);
                args[options.length] = e.getKey();
                Run run = decode(args);
                String where = e.getKey().getFileName() + " " + Arrays.toString(options);
                assertThat(run.exit()).as(where).isEqualTo(2);
                assertThat(run.errLines()).as(where).hasSize(1);
                assertThat(run.err()).as(where).startsWith("jrxe decode: ").contains(e.getValue());
                assertThat(run.out() + run.err()).as(where).doesNotContain("Exception", "at io.", "\tat ");
            }
        }
    }

    @Test
    void badOptionsAreOneLineAndExitOne() {
        Path golden = GoldenCaptures.file("guest_ud_pingpong.pcap");
        for (Object[] args : new Object[][] {{"--bogus", golden}, {}, {"-x", golden}, {golden, golden}, {"--json=maybe", golden}}) {
            Run run = decode(args);
            String where = Arrays.toString(args);
            BadOptionAnswer.check(where, run.exit(), run.out(), run.err(), "decode");
        }
        assertThat(decode("--bogus", golden).err()).contains("Unknown option: '--bogus'");
        assertThat(decode().err()).contains("Missing required parameter: 'FILE'");
    }

    // ---- helpers ----

    /** A RoCE packet of exactly this many random bytes with this opcode (whether or not the opcode allows it). */
    private static byte[] roce(int opcode, int length, Random random) {
        byte[] packet = new byte[length];
        random.nextBytes(packet);
        new BthFlyweight().wrap(ByteBuffer.wrap(packet), 0).set(opcode, false, 0, 0xFFFF, 0x11, true, 100);
        return packet;
    }

    private static void putShort(byte[] b, int at, int value) {
        b[at] = (byte) (value >>> 8);
        b[at + 1] = (byte) value;
    }

    static Path write(Path file, int linkType, List<byte[]> frames) {
        try (PcapngWriter writer = new PcapngWriter(file)) {
            int id = writer.addInterface("test0", linkType, 0);
            long time = 1_700_000_000_000_000_000L;
            for (byte[] frame : frames) {
                writer.write(id, time, frame, 0, frame.length, null);
                time += 1_000;
            }
        }
        return file;
    }

    /** The detail view's paragraphs, one per packet (the totals line after them dropped). */
    private static List<String> paragraphs(String detail) {
        List<String> paragraphs = new ArrayList<>();
        Matcher m = Pattern.compile("(?m)^Frame \\d+: ").matcher(detail);
        List<Integer> starts = new ArrayList<>();
        while (m.find()) {
            starts.add(m.start());
        }
        for (int i = 0; i < starts.size(); i++) {
            int end = i + 1 < starts.size() ? starts.get(i + 1) : detail.length();
            paragraphs.add(detail.substring(starts.get(i), end));
        }
        return paragraphs;
    }

    private static void assertNumber(Map<String, Object> o, String path, String tsharkValue, String where) {
        Object value = o;
        for (String key : path.split("\\.")) {
            assertThat(value).as(where + ": " + path).isInstanceOf(Map.class);
            value = ((Map<?, ?>) value).get(key);
        }
        assertThat(value).as(where + ": " + path + " is a number").isInstanceOf(BigDecimal.class);
        assertThat(((BigDecimal) value).toBigIntegerExact()).as(where + ": " + path).isEqualTo(integer(tsharkValue));
    }

    private static BigInteger integer(String tshark) {
        return tshark.startsWith("0x") ? new BigInteger(tshark.substring(2), 16) : new BigInteger(tshark);
    }

    private static boolean flag(String tshark) {
        return tshark.equals("1") || tshark.equalsIgnoreCase("true");
    }

    private static String letters(String name) {
        return name.toLowerCase().replaceAll("[^a-z0-9]", "");
    }
}
