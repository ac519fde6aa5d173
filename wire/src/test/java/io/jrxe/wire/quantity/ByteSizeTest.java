package io.jrxe.wire.quantity;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Sizes as people write them, and as the sizing commands print them. */
class ByteSizeTest {
    @Test
    void suffixesArePowersOf1024AndPlainNumbersAreBytes() {
        assertThat(ByteSize.parse("4096")).isEqualTo(4096);
        assertThat(ByteSize.parse("4K")).isEqualTo(4096);
        assertThat(ByteSize.parse("4k")).isEqualTo(4096);
        assertThat(ByteSize.parse("4KiB")).isEqualTo(4096);
        assertThat(ByteSize.parse("4KB")).isEqualTo(4096);
        assertThat(ByteSize.parse("1M")).isEqualTo(1L << 20);
        assertThat(ByteSize.parse("1G")).isEqualTo(1L << 30);
        assertThat(ByteSize.parse("3T")).isEqualTo(3L << 40);
        assertThat(ByteSize.parse("0")).isZero();
        assertThat(ByteSize.parse("8B")).isEqualTo(8);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "K", "1.5G", "-1", "1X", "one", "4 K", "1GG", "0x10"})
    void whatIsNotASizeIsRefusedWithTheFormExpected(String text) {
        assertThatThrownBy(() -> ByteSize.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a size").hasMessageContaining("K, M, G");
    }

    @Test
    void sizesPast64BitsAreRefused() {
        assertThatThrownBy(() -> ByteSize.parse("9999999999999999999")).hasMessageContaining("too large");
        assertThatThrownBy(() -> ByteSize.parse("16777216T")).hasMessageContaining("too large");
        assertThat(ByteSize.parse("8388607T")).isEqualTo(8388607L << 40);
    }

    @Test
    void printedExactlyInTheLargestUnitThatDividesThem() {
        assertThat(ByteSize.unit(1L << 30)).isEqualTo("1 GiB");
        assertThat(ByteSize.unit(4096)).isEqualTo("4 KiB");
        assertThat(ByteSize.unit(6144)).isEqualTo("6 KiB");
        assertThat(ByteSize.unit(1000)).isEqualTo("1,000 B");
        assertThat(ByteSize.full(2_097_152)).isEqualTo("2,097,152 B (2 MiB)");
        assertThat(ByteSize.full(6000)).isEqualTo("6,000 B (5.86 KiB)");
        assertThat(ByteSize.full(512)).isEqualTo("512 B");
        assertThat(ByteSize.count(262_144)).isEqualTo("262,144");
    }
}
