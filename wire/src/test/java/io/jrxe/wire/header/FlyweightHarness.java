package io.jrxe.wire.header;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * Seeded property checks shared by every header flyweight. Each iteration builds a heap or
 * direct buffer full of random bytes, wraps the flyweight at a random nonzero offset (with a
 * random buffer position, which absolute accessors must ignore) and compares the whole buffer
 * against {@link HeaderBits}, the bit-by-bit reference layout. So a setter that spills into a
 * neighbouring field, into the bytes around the header, or moves the buffer's position, fails
 * with the seed that shows it.
 *
 * @param fields fields that together cover every bit of the header exactly once
 * @param views  further read-only decodings that overlap {@code fields}
 */
public record FlyweightHarness<F extends Flyweight<F>>(Supplier<F> factory, int length,
                                                List<HeaderField<F>> fields, List<HeaderField<F>> views) {

    public static final int ITERATIONS = 10_000;

    public FlyweightHarness {
        assertThat(factory.get().length()).as("length()").isEqualTo(length);
        boolean[] covered = new boolean[length * 8];
        for (HeaderField<F> field : fields) {
            for (int bit = field.bitOffset(); bit < field.bitOffset() + field.width(); bit++) {
                assertThat(bit).as("bit of field %s", field.name()).isLessThan(length * 8);
                assertThat(covered[bit]).as("bit %d claimed twice (field %s)", bit, field.name()).isFalse();
                covered[bit] = true;
            }
        }
        for (int bit = 0; bit < covered.length; bit++) {
            assertThat(covered[bit]).as("bit %d belongs to no field", bit).isTrue();
        }
    }

    public FlyweightHarness(Supplier<F> factory, int length, List<HeaderField<F>> fields) {
        this(factory, length, fields, List.of());
    }

    /** Fresh random seed, or -Djrxe.seed=N to replay one. */
    public static long seed() {
        return Long.getLong("jrxe.seed", new Random().nextLong());
    }

    /** Sets every writable field, one at a time and in random order, with a random value. */
    public void checkEveryFieldRoundTrips(long seed, int iterations) {
        Random random = new Random(seed);
        List<HeaderField<F>> writable = new ArrayList<>(fields.stream().filter(f -> f.setter() != null).toList());
        assertThat(writable).as("writable fields").isNotEmpty();
        for (int iteration = 0; iteration < iterations; iteration++) {
            Packet packet = Packet.random(random, length);
            F flyweight = factory.get().wrap(packet.buffer(), packet.offset());
            Collections.shuffle(writable, random);
            for (HeaderField<F> field : writable) {
                long value = randomValue(random, field.width());
                long raw = withGarbageAbove(random, value, field.width());
                String where = "seed " + seed + " (replay: -Djrxe.seed=" + seed + ") iteration " + iteration
                        + ", " + field.name() + "(0x" + Long.toHexString(raw) + ") " + packet;
                byte[] expected = packet.bytes();
                field.writeTo(expected, packet.offset(), value);

                field.set(flyweight, raw);

                assertThat(packet.bytes()).as("buffer after %s", where).isEqualTo(expected);
                assertThat(field.get(flyweight)).as("read back after %s", where).isEqualTo(value);
                assertDecodes(flyweight, packet, where);
            }
        }
    }

    /** Every getter, on random bytes, agrees with the reference layout and changes nothing. */
    public void checkDecodesRandomBytes(long seed, int iterations) {
        Random random = new Random(seed);
        for (int iteration = 0; iteration < iterations; iteration++) {
            Packet packet = Packet.random(random, length);
            byte[] before = packet.bytes();
            F flyweight = factory.get().wrap(packet.buffer(), packet.offset());
            String where = "seed " + seed + " (replay: -Djrxe.seed=" + seed + ") iteration " + iteration + " " + packet;
            assertDecodes(flyweight, packet, where);
            assertThat(packet.bytes()).as("bytes after reading, %s", where).isEqualTo(before);
        }
    }

    /**
     * A whole-header setter: it must write {@code arguments} where they belong and zero in
     * every other bit of the header, and nothing outside it.
     */
    public void checkSetAll(long seed, int iterations, List<HeaderField<F>> arguments, BiConsumer<F, long[]> setAll) {
        Random random = new Random(seed);
        for (int iteration = 0; iteration < iterations; iteration++) {
            Packet packet = Packet.random(random, length);
            F flyweight = factory.get().wrap(packet.buffer(), packet.offset());
            long[] values = new long[arguments.size()];
            long[] raw = new long[values.length];
            byte[] expected = packet.bytes();
            Arrays.fill(expected, packet.offset(), packet.offset() + length, (byte) 0);
            for (int i = 0; i < values.length; i++) {
                HeaderField<F> argument = arguments.get(i);
                values[i] = randomValue(random, argument.width());
                raw[i] = withGarbageAbove(random, values[i], argument.width());
                argument.writeTo(expected, packet.offset(), values[i]);
            }
            String where = "seed " + seed + " (replay: -Djrxe.seed=" + seed + ") iteration " + iteration
                    + ", set" + Arrays.toString(raw) + " " + packet;

            setAll.accept(flyweight, raw);

            assertThat(packet.bytes()).as("buffer after %s", where).isEqualTo(expected);
            assertDecodes(flyweight, packet, where);
        }
    }

    private void assertDecodes(F flyweight, Packet packet, String where) {
        byte[] bytes = packet.bytes();
        List<HeaderField<F>> all = new ArrayList<>(fields);
        all.addAll(views);
        long[] expected = new long[all.size()];
        long[] actual = new long[all.size()];
        for (int i = 0; i < all.size(); i++) {
            expected[i] = all.get(i).readFrom(bytes, packet.offset());
            actual[i] = all.get(i).get(flyweight);
        }
        assertThat(actual).as("fields %s decoded after %s", all.stream().map(HeaderField::name).toList(), where)
                .isEqualTo(expected);
        packet.assertUntouchedBounds(where);
    }

    /** Mostly uniform, with the edge values 0 and all ones well represented. */
    static long randomValue(Random random, int width) {
        return switch (random.nextInt(8)) {
            case 0 -> 0;
            case 1 -> HeaderBits.mask(width);
            default -> random.nextLong() & HeaderBits.mask(width);
        };
    }

    /** Sometimes sets bits the field has no room for: a setter must drop them, not spill them. */
    private static long withGarbageAbove(Random random, long value, int width) {
        if (width == 64 || random.nextInt(4) != 0) {
            return value;
        }
        return value | random.nextLong() << width;
    }

    /** A random buffer with a header's worth of room at a random nonzero offset. */
    record Packet(ByteBuffer buffer, int offset, int position, int limit) {
        static Packet random(Random random, int headerLength) {
            int offset = 1 + random.nextInt(40);
            int capacity = offset + headerLength + random.nextInt(40);
            ByteBuffer buffer = random.nextBoolean() ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity);
            byte[] noise = new byte[capacity];
            random.nextBytes(noise);
            buffer.put(0, noise);
            buffer.position(random.nextInt(capacity + 1));
            return new Packet(buffer, offset, buffer.position(), buffer.limit());
        }

        byte[] bytes() {
            byte[] copy = new byte[buffer.capacity()];
            buffer.get(0, copy);
            return copy;
        }

        void assertUntouchedBounds(String where) {
            assertThat(buffer.position()).as("position after %s", where).isEqualTo(position);
            assertThat(buffer.limit()).as("limit after %s", where).isEqualTo(limit);
        }

        @Override
        public String toString() {
            return (buffer.isDirect() ? "direct" : "heap") + " buffer of " + buffer.capacity()
                    + " bytes, header at offset " + offset + ", position " + position;
        }
    }
}
