package io.jrxe.wire.header;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The words a syndrome is printed with in traces and the dissector. */
class AethSyndromeDescribeTest {
    @Test
    void ackNamesItsCreditCountOrSaysItIsInvalid() {
        assertThat(AethSyndrome.describe(AethSyndrome.ack(0))).isEqualTo("ACK credits=0");
        assertThat(AethSyndrome.describe(AethSyndrome.ack(7))).isEqualTo("ACK credits=7");
        assertThat(AethSyndrome.describe(AethSyndrome.ack(30))).isEqualTo("ACK credits=30");
        assertThat(AethSyndrome.describe(AethSyndrome.ack(31))).isEqualTo("ACK credits=invalid");
    }

    @Test
    void rnrNakNamesTheTimerCodeAndItsDelay() {
        assertThat(AethSyndrome.describe(AethSyndrome.rnrNak(14))).isEqualTo("RNR NAK timer=14 (1.28 ms)");
        assertThat(AethSyndrome.describe(AethSyndrome.rnrNak(0))).isEqualTo("RNR NAK timer=0 (655.36 ms)");
        assertThat(AethSyndrome.describe(AethSyndrome.rnrNak(1))).isEqualTo("RNR NAK timer=1 (0.01 ms)");
        assertThat(AethSyndrome.describe(AethSyndrome.rnrNak(25))).isEqualTo("RNR NAK timer=25 (61.44 ms)");
        assertThat(AethSyndrome.describe(AethSyndrome.rnrNak(31))).isEqualTo("RNR NAK timer=31 (491.52 ms)");
    }

    @Test
    void nakNamesEachCode() {
        assertThat(AethSyndrome.describe(0x60)).isEqualTo("NAK PSN sequence error");
        assertThat(AethSyndrome.describe(0x61)).isEqualTo("NAK invalid request");
        assertThat(AethSyndrome.describe(0x62)).isEqualTo("NAK remote access error");
        assertThat(AethSyndrome.describe(0x63)).isEqualTo("NAK remote operational error");
        assertThat(AethSyndrome.describe(0x64)).isEqualTo("NAK invalid RD request");
    }

    @Test
    void reservedNakCodesAreNamedAsReserved() {
        assertThat(AethSyndrome.describe(0x65)).isEqualTo("NAK reserved code 5");
        assertThat(AethSyndrome.describe(0x7F)).isEqualTo("NAK reserved code 31");
    }

    @Test
    void theReservedTypeIsShownInHex() {
        assertThat(AethSyndrome.describe(0x40)).isEqualTo("reserved syndrome 0x40");
        assertThat(AethSyndrome.describe(0x5F)).isEqualTo("reserved syndrome 0x5f");
    }

    @Test
    void aSetReservedBitIsPointedOut() {
        assertThat(AethSyndrome.describe(0x80 | 0x1F)).isEqualTo("ACK credits=invalid (reserved bit set)");
        assertThat(AethSyndrome.describe(0x80 | 0x2E)).isEqualTo("RNR NAK timer=14 (1.28 ms) (reserved bit set)");
        assertThat(AethSyndrome.describe(0x80 | 0x62)).isEqualTo("NAK remote access error (reserved bit set)");
    }

    @Test
    void everySyndromeByteHasADescription() {
        for (int syndrome = 0; syndrome < 256; syndrome++) {
            assertThat(AethSyndrome.describe(syndrome)).as("describe(0x%02x)", syndrome).isNotBlank();
        }
    }
}
