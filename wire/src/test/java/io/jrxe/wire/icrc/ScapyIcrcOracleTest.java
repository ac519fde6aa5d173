package io.jrxe.wire.icrc;

import io.jrxe.wire.dissect.DissectedPacket;
import io.jrxe.wire.dissect.Dissector;
import io.jrxe.wire.framing.LinkType;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.testing.ExternalTool;
import io.jrxe.wire.testing.SamplePackets;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** jrxe's ICRC against an oracle nobody here wrote: scapy's RoCE layer (IPv4 only), both ways. */
class ScapyIcrcOracleTest {
    @TempDir
    static Path dir;
    static Path script;

    @BeforeAll
    static void installScript() {
        script = ExternalTool.scapyIcrcScript(dir);
    }

    @Test
    void scapyAgreesWithTheIcrcOfEveryOpcodeFramedByJrxe() throws IOException {
        Random random = new Random(4791);
        List<String> frames = new ArrayList<>();
        int[] sizes = {0, 1, 3, 4, 255, 1024, 4096};
        for (Opcode opcode : Opcode.values()) {
            for (int size : sizes) {
                byte[] roce = SamplePackets.roce(opcode, size, random);
                frames.add(HexFormat.of().formatHex(
                        SamplePackets.frame(roce, "10.77.0.2", "10.77.0.3", 49152 + random.nextInt(16384), random.nextInt(65536))));
            }
        }
        Path file = dir.resolve("jrxe-frames.hex");
        Files.write(file, frames);

        String out = ExternalTool.runOk(List.of(ExternalTool.DEBIAN_PYTHON.toString(), script.toString(), "check",
                file.toString()), 120);

        List<String> verdicts = out.lines().toList();
        assertThat(verdicts).hasSize(frames.size());
        assertThat(verdicts).allMatch("ok"::equals);
    }

    @Test
    void scapyDetectsAWrongIcrcFromJrxe() throws IOException {
        byte[] frame = SamplePackets.frame(SamplePackets.roce(Opcode.RC_SEND_ONLY, 64, new Random(1)),
                "10.77.0.2", "10.77.0.3", 49152, 1);
        frame[frame.length - 1] ^= 1;
        Path file = dir.resolve("bad.hex");
        Files.writeString(file, HexFormat.of().formatHex(frame) + "\n");

        String out = ExternalTool.runOk(List.of(ExternalTool.DEBIAN_PYTHON.toString(), script.toString(), "check",
                file.toString()), 120);

        assertThat(out.strip()).startsWith("bad ");
    }

    @Test
    void jrxeValidatesFramesBuiltByScapy() {
        String out = ExternalTool.runOk(List.of(ExternalTool.DEBIAN_PYTHON.toString(), script.toString(), "make", "50"), 120);
        Dissector dissector = new Dissector();
        List<String> lines = out.lines().toList();
        assertThat(lines).hasSize(50);
        int n = 0;
        for (String line : lines) {
            DissectedPacket p = dissector.dissect(++n, 0, HexFormat.of().parseHex(line), LinkType.ETHERNET);
            assertThat(p.opcode()).isEqualTo(Opcode.RC_SEND_ONLY);
            assertThat(p.icrcOk()).as("frame %d: stored %08x computed %08x", n, p.icrcStored(), p.icrcComputed()).isTrue();
        }
    }
}
