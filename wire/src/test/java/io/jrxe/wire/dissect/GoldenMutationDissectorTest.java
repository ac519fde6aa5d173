package io.jrxe.wire.dissect;

import io.jrxe.wire.framing.FrameLayout.Kind;
import io.jrxe.wire.fuzz.GoldenRoce;
import io.jrxe.wire.fuzz.Mutator;
import io.jrxe.wire.opcode.Opcode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The volume companion of {@link DissectorFuzzTest}: hundreds of thousands of seeded mutations of
 * the golden captures' RoCE frames as they were captured, with the damage DissectorFuzzTest does
 * not do (splices of two frames, repeated stretches, 32-bit words, long extensions, lying IP and
 * UDP lengths), aimed at the headers and, for the CM frames, at the MAD. The dissector must return a
 * packet for every one (a damaged one is {@link Kind#MALFORMED} with a reason, never an exception),
 * and every eighth goes through the text, -V and JSON renderings too. A failure names its seed and
 * shows the frame; rerun it with {@code -Djrxe.fuzz.seed=SEED -Djrxe.fuzz.dissector.cases=1}.
 */
class GoldenMutationDissectorTest {
    private static final long BASE_SEED = Long.getLong("jrxe.fuzz.seed", 0xD155_EC7L);
    private static final int CASES = Integer.getInteger("jrxe.fuzz.dissector.cases", 300_000);
    private static final int RENDER_EVERY = 8;

    private static List<GoldenRoce.Frame> frames;
    private static List<GoldenRoce.Frame> madFrames;

    @BeforeAll
    static void load() {
        frames = GoldenRoce.load();
        madFrames = frames.stream().filter(GoldenMutationDissectorTest::isMad).toList();
        assertThat(madFrames).as("CM frames in the golden captures").isNotEmpty();
    }

    private static boolean isMad(GoldenRoce.Frame f) {
        return (f.data()[f.bth()] & 0xFF) == Opcode.UD_SEND_ONLY.code();
    }

    @Test
    void mutatedGoldenFramesAlwaysDissectAndRender() {
        Dissector dissector = new Dissector();
        int[] kinds = new int[Kind.values().length];
        int cm = 0;
        for (int i = 0; i < CASES; i++) {
            long seed = BASE_SEED + i;
            Random random = new Random(seed);
            // The CM frames are few in the captures: one case in four starts from one, so the MAD decoder gets its share.
            List<GoldenRoce.Frame> from = random.nextInt(4) == 0 ? madFrames : frames;
            GoldenRoce.Frame start = from.get(random.nextInt(from.size()));
            GoldenRoce.Frame other = frames.get(random.nextInt(frames.size()));
            boolean mad = isMad(start);
            // Headers, and for a MAD its header and the start of the CM message too.
            int focus = start.bth() + (mad ? Opcode.UD_SEND_ONLY.headerLength() + 96 : 64);
            Mutator mutator = new Mutator(random, focus, start.lengthFields());
            byte[] data = mutator.mutate(start.data(), other.data());
            DissectedPacket p;
            try {
                p = dissector.dissect(i, 1_000L * i, data, start.linkType());
                assertThat(p.capturedLength()).isEqualTo(data.length);
                if (p.kind() == Kind.MALFORMED) {
                    assertThat(p.malformedReason()).isNotBlank();
                }
                if (p.kind() == Kind.ROCE) {
                    assertThat(p.opcode().headerLength() + p.payload().length + p.pad().length + 4)
                            .as("headers, payload, pad and ICRC fill the UDP payload").isEqualTo(p.udp().length() - 8);
                }
                if (i % RENDER_EVERY == 0) {
                    TestFrames.assertRenders(p, "seed " + seed);
                }
            } catch (Throwable t) {
                throw new AssertionError("seed " + seed + " (from " + start.origin() + ", mutations " + mutator.applied()
                        + ", link type " + start.linkType() + ", " + Mutator.hex(data) + "): " + t, t);
            }
            kinds[p.kind().ordinal()]++;
            if (p.mad() != null) {
                cm++;
            }
        }
        System.out.printf("GoldenMutationDissectorTest: %d mutated frames dissected (%d rendered): %d RoCE, %d malformed,"
                + " %d other, %d with a decoded MAD%n", CASES, (CASES + RENDER_EVERY - 1) / RENDER_EVERY,
                kinds[Kind.ROCE.ordinal()], kinds[Kind.MALFORMED.ordinal()], kinds[Kind.OTHER.ordinal()], cm);
        for (Kind kind : Kind.values()) {
            assertThat(kinds[kind.ordinal()]).as("cases that came out %s", kind).isGreaterThan(CASES / 200);
        }
        assertThat(cm).as("mutated MADs that were still decoded").isGreaterThan(CASES / 20);
    }
}
