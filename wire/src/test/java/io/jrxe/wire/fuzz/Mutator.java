package io.jrxe.wire.fuzz;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;

/**
 * Seeded damage to one packet or file: bit flips, byte and word sets, truncation, extension,
 * splicing with another sample, and length fields set to near-true, small or arbitrary values.
 * Each operation is drawn from the caller's Random, so a seed replays the same bytes; the names of
 * the operations applied are kept for the failure message.
 */
public final class Mutator {
    private static final int[] INTERESTING_BYTES = {0x00, 0x01, 0x04, 0x06, 0x11, 0x3F, 0x40, 0x45, 0x60, 0x64, 0x7F,
        0x80, 0xC0, 0xFE, 0xFF};
    private static final int[] INTERESTING_WORDS = {0, 1, -1, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF, 0x1_0000, 0x00FF_FFFF,
        0x0100_0000, 4096, 4095};

    private final Random random;
    private final int focus;
    private final int[] lengthFields;
    private final StringBuilder applied = new StringBuilder();

    /**
     * @param focus        most positional damage lands in the first {@code focus} bytes (the headers)
     * @param lengthFields offsets of 16-bit big-endian length fields the damage may rewrite
     */
    public Mutator(Random random, int focus, int... lengthFields) {
        this.random = random;
        this.focus = focus;
        this.lengthFields = lengthFields;
    }

    /** One to four operations on a copy of {@code data}; {@code other} is what a splice takes its tail from. */
    public byte[] mutate(byte[] data, byte[] other) {
        byte[] b = data.clone();
        int operations = 1 + random.nextInt(4);
        for (int i = 0; i < operations; i++) {
            b = once(b, other);
        }
        return b;
    }

    private byte[] once(byte[] b, byte[] other) {
        int choice = random.nextInt(lengthFields.length > 0 ? 8 : 7);
        applied.append("flip set word cut grow splice dup len".split(" ")[choice]).append(' ');
        if (b.length == 0 && choice <= 2) {
            return b;
        }
        switch (choice) {
            case 0 -> {
                int bits = 1 + random.nextInt(8);
                for (int i = 0; i < bits; i++) {
                    b[position(b.length, 1)] ^= (byte) (1 << random.nextInt(8));
                }
            }
            case 1 -> b[position(b.length, 1)] = (byte) (random.nextBoolean()
                    ? INTERESTING_BYTES[random.nextInt(INTERESTING_BYTES.length)] : random.nextInt(256));
            case 2 -> {
                if (b.length >= 4) {
                    int at = position(b.length, 4);
                    int word = random.nextBoolean() ? INTERESTING_WORDS[random.nextInt(INTERESTING_WORDS.length)]
                            : random.nextInt();
                    for (int k = 0; k < 4; k++) {
                        b[at + k] = (byte) (word >>> (24 - 8 * k));
                    }
                }
            }
            case 3 -> b = Arrays.copyOf(b, random.nextBoolean() ? random.nextInt(b.length + 1)
                    : Math.max(0, b.length - 1 - random.nextInt(8)));
            case 4 -> {
                int more = 1 + random.nextInt(random.nextInt(8) == 0 ? 2048 : 64);
                byte[] longer = Arrays.copyOf(b, b.length + more);
                for (int k = b.length; k < longer.length; k++) {
                    longer[k] = (byte) random.nextInt(256);
                }
                b = longer;
            }
            case 5 -> {
                // The head of this sample and the tail of another, cut at independent places.
                int keep = random.nextInt(b.length + 1);
                int from = random.nextInt(other.length + 1);
                byte[] spliced = Arrays.copyOf(b, keep + other.length - from);
                System.arraycopy(other, from, spliced, keep, other.length - from);
                b = spliced;
            }
            case 6 -> {
                // A stretch of the sample repeated in place: headers twice, or a longer payload.
                if (b.length > 0) {
                    int start = random.nextInt(b.length);
                    int len = 1 + random.nextInt(Math.min(64, b.length - start));
                    byte[] grown = new byte[b.length + len];
                    System.arraycopy(b, 0, grown, 0, start + len);
                    System.arraycopy(b, start, grown, start + len, b.length - start);
                    b = grown;
                }
            }
            case 7 -> {
                int at = lengthFields[random.nextInt(lengthFields.length)];
                if (at >= 0 && at + 2 <= b.length) {
                    int truth = (b[at] & 0xFF) << 8 | (b[at + 1] & 0xFF);
                    int value = switch (random.nextInt(3)) {
                        case 0 -> truth + random.nextInt(17) - 8;
                        case 1 -> random.nextInt(64);
                        default -> random.nextInt(0x10000);
                    };
                    b[at] = (byte) (value >>> 8);
                    b[at + 1] = (byte) value;
                }
            }
            default -> throw new IllegalStateException("no operation " + choice);
        }
        return b;
    }

    // Seven times in ten inside the focus (the headers), else anywhere; room for width bytes.
    private int position(int length, int width) {
        int span = random.nextInt(10) < 7 ? Math.min(length, focus) : length;
        return random.nextInt(Math.max(1, span - width + 1));
    }

    /** The operations applied since this mutator was made, for a failure message. */
    public String applied() {
        return applied.toString().trim();
    }

    /** What a failure message shows of the damaged bytes: all of them, in hex, up to 4 KiB. */
    public static String hex(byte[] data) {
        return data.length + " bytes: " + HexFormat.of().formatHex(data, 0, Math.min(data.length, 4096));
    }
}
