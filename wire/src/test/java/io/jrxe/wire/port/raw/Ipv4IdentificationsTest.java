package io.jrxe.wire.port.raw;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Identifications increment modulo 2^16 and skip 0, which the kernel would replace by its own. */
class Ipv4IdentificationsTest {
    @Test
    void incrementFromTheFirst() {
        Ipv4Identifications ids = new Ipv4Identifications(0x1234);
        assertThat(ids.next()).isEqualTo(0x1234);
        assertThat(ids.next()).isEqualTo(0x1235);
    }

    @Test
    void wrapPastZero() {
        Ipv4Identifications ids = new Ipv4Identifications(0xFFFE);
        assertThat(ids.next()).isEqualTo(0xFFFE);
        assertThat(ids.next()).isEqualTo(0xFFFF);
        assertThat(ids.next()).isEqualTo(1);
        assertThat(ids.next()).isEqualTo(2);
    }

    @Test
    void neverZeroOverAWholeCycle() {
        Ipv4Identifications ids = new Ipv4Identifications(0);
        for (int i = 0; i < 3 * 65536; i++) {
            assertThat(ids.next()).isBetween(1, 0xFFFF);
        }
    }
}
