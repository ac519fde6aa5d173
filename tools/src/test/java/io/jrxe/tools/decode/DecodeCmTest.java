package io.jrxe.tools.decode;

import io.jrxe.wire.capture.GoldenCaptures;
import io.jrxe.wire.capture.Tshark;
import io.jrxe.wire.cm.CmAttribute;
import io.jrxe.wire.cm.CmField;
import io.jrxe.wire.cm.TsharkCm;
import io.jrxe.wire.dissect.StrictJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `jrxe decode` on the RDMA CM captures (testdata/rxe-cm): the summary names each CM message as
 * tshark does, -V shows every field of it, and --json carries every field with the value tshark
 * decodes (TsharkCm pairs the names; the flow label and packet rate tshark misreads are checked
 * against the connection's UDP port in the wire module instead).
 */
class DecodeCmTest {
    private static final Pattern TSHARK_CM = Pattern.compile("CM: (\\w+)");

    static List<Path> cmFiles() {
        return GoldenCaptures.cmFiles();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cmFiles")
    void theSummaryNamesEveryCmMessageAsTsharkDoes(Path file) {
        Tshark.assumeInstalled();
        List<List<String>> info = Tshark.fields(file, "_ws.col.Info");
        DecodeCommandTest.Run run = DecodeCommandTest.decode(file);
        assertThat(run.exit()).as(run.err()).isZero();
        List<String> lines = run.outLines();
        assertThat(lines).hasSize(info.size() + 1);
        int named = 0;
        for (int i = 0; i < info.size(); i++) {
            Matcher m = TSHARK_CM.matcher(info.get(i).getFirst());
            String line = lines.get(i);
            if (m.find()) {
                named++;
                CmAttribute attribute = byLongName(m.group(1));
                assertThat(line).as("frame %d", i + 1)
                        .contains("UD SEND_ONLY  qp=0x000001 ", "DETH qkey=0x80010000 src_qp=0x000001",
                                "  CM " + m.group(1) + " (" + attribute.shortName() + ") ")
                        .endsWith("icrc=ok");
            } else {
                assertThat(line).as("frame %d", i + 1).doesNotContain("  CM ");
            }
        }
        assertThat(named).isEqualTo(cmMessages(file));
    }

    @Test
    void theSummaryCarriesWhatTellsConnectionsApart() {
        List<String> rping = DecodeCommandTest.decode(GoldenCaptures.cmFile("cm_rping_v4.pcap")).outLines();
        assertThat(rping.get(0)).contains("CM ConnectRequest (REQ) comm_id=0xab332b41 service=TCP:7174 qpn=0x000011 "
                + "psn=0x91e6a4 mtu=1024 resp_res=1 init_depth=1 retry=7 rnr_retry=7 10.77.0.2:43847 -> 10.77.0.3:7174");
        assertThat(rping.get(1)).contains("CM ConnectReply (REP) comm_id=0x1ef53982 remote_comm_id=0xab332b41 "
                + "qpn=0x000011 psn=0xf9d7ab resp_res=1 init_depth=1 rnr_retry=7");
        assertThat(rping.get(2)).contains("CM ReadyToUse (RTU) comm_id=0xab332b41 remote_comm_id=0x1ef53982");
        assertThat(rping.get(39)).contains("CM DisconnectRequest (DREQ) comm_id=0xab332b41 remote_comm_id=0x1ef53982 "
                + "remote_qpn=0x000011");
        assertThat(rping.get(40)).contains("CM DisconnectReply (DREP) comm_id=0x1ef53982 remote_comm_id=0xab332b41");
        List<String> refused = DecodeCommandTest.decode(GoldenCaptures.cmFile("cm_refused.pcap")).outLines();
        assertThat(refused.get(1)).contains("CM ConnectReject (REJ) comm_id=0x00000000 remote_comm_id=0xa3332b41 "
                + "rejects=REQ reason=8 (invalid service ID)");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cmFiles")
    void theDetailViewShowsEveryFieldOfEveryMessage(Path file) {
        DecodeCommandTest.Run run = DecodeCommandTest.decode("-V", file);
        assertThat(run.exit()).isZero();
        List<String> paragraphs = paragraphs(run.out());
        int shown = 0;
        for (String paragraph : paragraphs) {
            Matcher header = Pattern.compile("(?m)^  CM (\\w+) +(\\w+)$").matcher(paragraph);
            if (!header.find()) {
                assertThat(paragraph).doesNotContain("  MAD ");
                continue;
            }
            shown++;
            CmAttribute attribute = CmAttribute.valueOf(header.group(1));
            assertThat(header.group(2)).isEqualTo(attribute.longName());
            assertThat(paragraph).contains("  MAD       base version 1  class 0x07 (CM)  class version 2  method 0x03 (Send)",
                    "attribute ID " + String.format("0x%04x", attribute.id()) + " (" + attribute.longName() + ")");
            for (CmField f : attribute.fields()) {
                if (f.kind() != CmField.Kind.RESERVED) {
                    assertThat(paragraph).as("%s shows %s", attribute, f.label()).containsPattern("(?m)^ {12}" + f.label() + " +\\S");
                }
            }
            if (attribute == CmAttribute.REQ) {
                assertThat(paragraph).containsPattern("(?m)^  IP CM     version 0\\.0  IPv4  reserved 0x0  10\\.77\\.0\\.2:\\d+ -> 10\\.77\\.0\\.3:\\d+$");
            }
        }
        assertThat(shown).as("paragraphs with a CM message").isEqualTo(cmMessages(file));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cmFiles")
    void theJsonOfEveryMadCarriesWhatTsharkDecodes(Path file) {
        Tshark.assumeInstalled();
        List<String> names = TsharkCm.allTsharkNames();
        List<List<String>> rows = Tshark.fields(file, names.toArray(String[]::new));
        DecodeCommandTest.Run run = DecodeCommandTest.decode("--json", file);
        assertThat(run.exit()).isZero();
        List<String> lines = run.outLines();
        assertThat(lines).hasSameSizeAs(rows);
        int compared = 0;
        for (int i = 0; i < rows.size(); i++) {
            String where = file.getFileName() + " frame " + (i + 1);
            Map<String, String> row = new HashMap<>();
            for (int n = 0; n < names.size(); n++) {
                row.put(names.get(n), rows.get(i).get(n));
            }
            Map<String, Object> o = StrictJson.parseObject(lines.get(i));
            if (row.get("infiniband.mad.attributeid").isEmpty()) {
                assertThat(o).as(where).doesNotContainKeys("mad", "cm");
                continue;
            }
            Map<String, Object> mad = object(o, "mad", where);
            for (Map.Entry<String, String> e : TsharkCm.MAD.entrySet()) {
                assertThat(canonical(mad.get(e.getValue()))).as("%s mad.%s", where, e.getValue())
                        .isEqualTo(TsharkCm.canonical(row.get(e.getKey()), false));
            }
            Map<String, Object> cm = object(o, "cm", where);
            CmAttribute attribute = CmAttribute.valueOf((String) cm.get("message"));
            Map<String, String> fields = TsharkCm.fields(attribute);
            assertThat(fields).as("%s: tshark decodes %s", where, attribute).isNotEmpty();
            for (Map.Entry<String, String> e : fields.entrySet()) {
                CmField f = attribute.fields().stream().filter(x -> x.name().equals(e.getValue())).findFirst().orElseThrow();
                Object ours = cm.get(f.name());
                if (ours == null && f.kind() == CmField.Kind.RESERVED) {
                    ours = BigDecimal.ZERO; // reserved bits are in the JSON only when set
                }
                assertThat(ours).as("%s cm.%s", where, f.name()).isNotNull();
                assertThat(canonical(ours)).as("%s cm.%s (tshark %s)", where, f.name(), e.getKey())
                        .isEqualTo(TsharkCm.canonical(TsharkCm.value(row, e.getKey()), f.isByteRange()));
                compared++;
            }
            if (attribute == CmAttribute.REQ) {
                Map<String, Object> ip = object(cm, "ip_cm", where);
                for (Map.Entry<String, String> e : TsharkCm.IP_CM.entrySet()) {
                    String theirs = TsharkCm.value(row, e.getKey());
                    Object ours = ip.get(e.getValue());
                    if (ours instanceof String address) {
                        assertThat(address).as("%s ip_cm.%s", where, e.getValue()).isEqualTo(theirs);
                    } else {
                        assertThat(canonical(ours)).as("%s ip_cm.%s", where, e.getValue())
                                .isEqualTo(TsharkCm.canonical(theirs, false));
                    }
                    compared++;
                }
                assertThat(ip.get("destination_port")).isEqualTo(new BigDecimal(Long.decode(
                        row.get("infiniband.cm.req.serviceid")) & 0xFFFF));
            }
        }
        assertThat(compared).isGreaterThan(40);
    }

    /** How many CM messages testdata/rxe-cm/README.md says the capture holds. */
    private static int cmMessages(Path file) {
        return switch (file.getFileName().toString()) {
            case "cm_rping_v4.pcap" -> 5;
            case "cm_ucmatose.pcap" -> 10;
            case "cm_refused.pcap" -> 2;
            default -> throw new AssertionError("a new CM capture needs its message count here: " + file);
        };
    }

    private static CmAttribute byLongName(String longName) {
        for (CmAttribute a : CmAttribute.values()) {
            if (a.longName().equals(longName)) {
                return a;
            }
        }
        throw new AssertionError("tshark names a CM message jrxe does not know: " + longName);
    }

    /** A JSON value as TsharkCm.canonical writes tshark's: numbers and flags in decimal, addresses and hex as GID/bytes hex. */
    private static String canonical(Object json) {
        return switch (json) {
            case BigDecimal n -> n.toBigIntegerExact().toString();
            case Boolean b -> b ? "1" : "0";
            case String s -> TsharkCm.canonical(s, true);
            default -> throw new AssertionError("unexpected JSON value " + json);
        };
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Map<String, Object> parent, String key, String where) {
        assertThat(parent.get(key)).as("%s: %s is an object", where, key).isInstanceOf(Map.class);
        return (Map<String, Object>) parent.get(key);
    }

    private static List<String> paragraphs(String detail) {
        List<String> paragraphs = new ArrayList<>();
        for (String p : detail.split("(?m)(?=^Frame \\d+: )")) {
            if (p.startsWith("Frame ")) {
                paragraphs.add(p);
            }
        }
        return paragraphs;
    }
}
