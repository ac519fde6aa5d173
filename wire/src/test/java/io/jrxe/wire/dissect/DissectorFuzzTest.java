package io.jrxe.wire.dissect;

import io.jrxe.wire.capture.CaptureReader;
import io.jrxe.wire.capture.CapturedFrame;
import io.jrxe.wire.capture.GoldenCaptures;
import io.jrxe.wire.framing.FrameLayout;
import io.jrxe.wire.framing.FrameLayout.Kind;
import io.jrxe.wire.framing.LinkType;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.testing.SamplePackets;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random damage to real frames: 20,000 seeded mutations and truncations of the golden captures'
 * frames (and of sample frames of every opcode, over every link type) never make the dissector or
 * a renderer throw, and what comes back is consistent. A failure names its seed; rerun just that
 * case with {@code -Djrxe.fuzz.seed=SEED -Djrxe.fuzz.cases=1}.
 */
class DissectorFuzzTest {
    private static final long BASE_SEED = Long.getLong("jrxe.fuzz.seed", 0x4791_5EEDL);
    private static final int CASES = Integer.getInteger("jrxe.fuzz.cases", 20_000);
    private static final int[] LINK_TYPES = {LinkType.NULL, LinkType.ETHERNET, LinkType.RAW, LinkType.LINUX_SLL,
        LinkType.IPV4, LinkType.IPV6, LinkType.LINUX_SLL2, 147};
    private static final int[] INTERESTING = {0x00, 0x01, 0x04, 0x06, 0x11, 0x3F, 0x40, 0x45, 0x60, 0x7F, 0x80, 0xFF};

    /** A frame to start from, with where its IP, UDP and BTH start (-1 where there is none). */
    private record Seed(String origin, byte[] data, int linkType, int ip, int udp, int bth) {
    }

    private static final List<Seed> corpus = new ArrayList<>();

    @BeforeAll
    static void loadCorpus() {
        FrameLayout layout = new FrameLayout();
        List<byte[]> frames = new ArrayList<>();
        List<String> origins = new ArrayList<>();
        // The CM captures too: their MADs on QP1 are decoded down to every field, so damage reaches that code.
        for (Path file : GoldenCaptures.allFiles()) {
            for (CapturedFrame f : CaptureReader.readAll(file)) {
                frames.add(f.data());
                origins.add(file.getFileName() + " frame " + f.frameNumber());
            }
        }
        Random random = new Random(BASE_SEED);
        for (Opcode opcode : Opcode.values()) {
            frames.add(TestFrames.v4(SamplePackets.roce(opcode, random.nextInt(70), random)));
            origins.add("sample IPv4 " + opcode);
            frames.add(TestFrames.v6(SamplePackets.roce(opcode, random.nextInt(70), random)));
            origins.add("sample IPv6 " + opcode);
        }
        for (int i = 0; i < frames.size(); i++) {
            byte[] ethernet = frames.get(i);
            for (int linkType : new int[] {LinkType.ETHERNET, LinkType.LINUX_SLL, LinkType.LINUX_SLL2, LinkType.RAW, LinkType.NULL}) {
                // Every golden frame over Ethernet; the other link types from a sample of them.
                if (linkType != LinkType.ETHERNET && i % 16 != 0) {
                    continue;
                }
                byte[] data = TestFrames.relink(ethernet, linkType);
                Kind kind = layout.parse(ByteBuffer.wrap(data), 0, data.length, linkType);
                assertThat(kind).as(origins.get(i) + " is RoCE before it is damaged").isEqualTo(Kind.ROCE);
                corpus.add(new Seed(origins.get(i) + " as " + LinkType.name(linkType), data, linkType,
                        layout.ipOffset(), layout.udpOffset(), layout.bthOffset()));
            }
        }
    }

    @Test
    void theUndamagedCorpusDecodesCleanly() {
        Dissector dissector = new Dissector();
        for (Seed s : corpus) {
            DissectedPacket p = dissector.dissect(1, 0, s.data(), s.linkType());
            assertThat(p.kind()).as(s.origin()).isEqualTo(Kind.ROCE);
            assertThat(p.icrcOk()).as(s.origin()).isTrue();
        }
        assertThat(corpus).hasSizeGreaterThan(2000);
    }

    @Test
    void randomDamageNeverThrowsAndAlwaysGivesAConsistentPacket() {
        Dissector dissector = new Dissector();
        int[] kinds = new int[Kind.values().length];
        for (int i = 0; i < CASES; i++) {
            long seed = BASE_SEED + i;
            Random random = new Random(seed);
            Seed start = corpus.get(random.nextInt(corpus.size()));
            byte[] data = start.data().clone();
            int linkType = start.linkType();
            StringBuilder applied = new StringBuilder();
            int mutations = 1 + random.nextInt(3);
            for (int m = 0; m < mutations; m++) {
                int choice = random.nextInt(9);
                applied.append(choice).append(' ');
                switch (choice) {
                    case 0 -> {
                        int bits = 1 + random.nextInt(4);
                        for (int b = 0; b < bits && data.length > 0; b++) {
                            data[position(random, data)] ^= (byte) (1 << random.nextInt(8));
                        }
                    }
                    case 1 -> {
                        if (data.length > 0) {
                            data[position(random, data)] = (byte) (random.nextBoolean()
                                    ? INTERESTING[random.nextInt(INTERESTING.length)] : random.nextInt(256));
                        }
                    }
                    case 2 -> data = Arrays.copyOf(data, random.nextInt(data.length + 1));
                    case 3 -> {
                        int more = 1 + random.nextInt(64);
                        byte[] longer = Arrays.copyOf(data, data.length + more);
                        for (int k = data.length; k < longer.length; k++) {
                            longer[k] = (byte) random.nextInt(256);
                        }
                        data = longer;
                    }
                    case 4 -> set(data, start.bth(), random.nextInt(256), 1);                  // any opcode
                    case 5 -> set(data, start.bth() + 1, random.nextInt(256), 1);              // SE, M, pad count, TVer
                    case 6 -> {                                                                // IP length field
                        boolean v4 = start.udp() - start.ip() == 20;
                        set(data, start.ip() + (v4 ? 2 : 4), lengthValue(random, data.length - start.ip()), 2);
                    }
                    case 7 -> set(data, start.udp() + 4, lengthValue(random, data.length - start.udp()), 2); // UDP length
                    case 8 -> linkType = LINK_TYPES[random.nextInt(LINK_TYPES.length)];
                    default -> throw new IllegalStateException();
                }
            }
            DissectedPacket p;
            try {
                p = dissector.dissect(i, 1_000_000_000L * i, data, linkType);
                checkConsistent(p, data);
                TestFrames.assertRenders(p, "packet");
            } catch (Throwable t) {
                throw new AssertionError("seed " + seed + " (from " + start.origin() + ", mutations " + applied
                        + "link type " + linkType + ", " + data.length + " bytes: "
                        + HexFormat.of().formatHex(data, 0, Math.min(data.length, 128)) + "): " + t, t);
            }
            kinds[p.kind().ordinal()]++;
        }
        // The mutations must reach every outcome, or they test less than they seem to.
        for (Kind kind : Kind.values()) {
            assertThat(kinds[kind.ordinal()]).as("cases that came out %s", kind).isGreaterThan(CASES / 50);
        }
    }

    private static void checkConsistent(DissectedPacket p, byte[] data) {
        assertThat(p.capturedLength()).isEqualTo(data.length);
        switch (p.kind()) {
            case ROCE -> {
                assertThat(p.malformedReason()).isNull();
                assertThat(p.opcode()).isNotNull();
                assertThat(p.icrcChecked()).isTrue();
                assertThat(p.extensions()).hasSize(p.opcode().headerCount());
                assertThat(p.pad()).hasSize(p.bth().padCount());
                assertThat(p.opcode().headerLength() + p.payload().length + p.pad().length + 4)
                        .as("headers, payload, pad and ICRC fill the UDP payload").isEqualTo(p.udp().length() - 8);
                if (!p.opcode().hasPayload()) {
                    assertThat(p.payload()).isEmpty();
                }
                Map<String, Object> json = StrictJson.parseObject(PacketJson.of(p));
                assertThat(json.get("opcode")).isEqualTo(new BigDecimal(p.bth().opcode()));
                assertThat(json.get("psn")).isEqualTo(new BigDecimal(p.bth().psn()));
                assertThat(json.get("icrc_ok")).isEqualTo(p.icrcOk());
            }
            case MALFORMED -> assertThat(p.malformedReason()).isNotBlank();
            case OTHER -> {
                assertThat(p.malformedReason()).isNull();
                assertThat(p.isRoce()).isFalse();
            }
        }
        assertThat(p.icrcOk()).isEqualTo(p.icrcChecked() && p.icrcStored() == p.icrcComputed());
    }

    // Headers are where the dissector's decisions are: aim most damage at the first 96 bytes.
    private static int position(Random random, byte[] data) {
        return random.nextInt(10) < 7 ? random.nextInt(Math.min(data.length, 96)) : random.nextInt(data.length);
    }

    // Around the true length (off by a little, in both directions) or anything at all.
    private static int lengthValue(Random random, int trueLength) {
        return switch (random.nextInt(3)) {
            case 0 -> trueLength + random.nextInt(17) - 8;
            case 1 -> random.nextInt(64);
            default -> random.nextInt(0x10000);
        };
    }

    private static void set(byte[] data, int at, int value, int width) {
        if (at >= 0 && at + width <= data.length) {
            if (width == 2) {
                data[at] = (byte) (value >>> 8);
            }
            data[at + width - 1] = (byte) value;
        }
    }
}
