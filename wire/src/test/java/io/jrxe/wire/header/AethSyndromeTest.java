package io.jrxe.wire.header;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The AETH syndrome byte (IBTA 9.7.5.1, table 43): reserved bit, two type bits, five value bits. */
class AethSyndromeTest {
    @Test
    void typeAndValueOfSyndromesRxeSends() {
        assertThat(AethSyndrome.type(0x1F)).isEqualTo(AethSyndrome.TYPE_ACK);
        assertThat(AethSyndrome.value(0x1F)).isEqualTo(31);
        assertThat(AethSyndrome.type(0x2E)).isEqualTo(AethSyndrome.TYPE_RNR_NAK);
        assertThat(AethSyndrome.value(0x2E)).isEqualTo(14);
        assertThat(AethSyndrome.type(0x60)).isEqualTo(AethSyndrome.TYPE_NAK);
        assertThat(AethSyndrome.value(0x60)).isZero();
        assertThat(AethSyndrome.type(0x42)).isEqualTo(AethSyndrome.TYPE_RESERVED);
        assertThat(AethSyndrome.value(0x42)).isEqualTo(2);
    }

    @Test
    void typeConstantsAreTheTwoBitPatternsOfTheSpec() {
        assertThat(new int[] {AethSyndrome.TYPE_ACK, AethSyndrome.TYPE_RNR_NAK, AethSyndrome.TYPE_RESERVED,
                AethSyndrome.TYPE_NAK, AethSyndrome.CREDITS_INVALID}).containsExactly(0b00, 0b01, 0b10, 0b11, 0x1F);
    }

    @Test
    void everySyndromeByteSplitsIntoTypeAndValueIgnoringTheReservedBit() {
        for (int reserved = 0; reserved <= 1; reserved++) {
            for (int type = 0; type < 4; type++) {
                for (int value = 0; value < 32; value++) {
                    int syndrome = reserved << 7 | type << 5 | value;
                    assertThat(AethSyndrome.type(syndrome)).as("type of 0x%02x", syndrome).isEqualTo(type);
                    assertThat(AethSyndrome.value(syndrome)).as("value of 0x%02x", syndrome).isEqualTo(value);
                    assertThat(new boolean[] {AethSyndrome.isAck(syndrome), AethSyndrome.isRnrNak(syndrome),
                            AethSyndrome.isNak(syndrome)}).as("isAck/isRnrNak/isNak of 0x%02x", syndrome)
                            .containsExactly(type == 0, type == 1, type == 3);
                }
            }
        }
    }

    @Test
    void ackEncodesTheCreditCountWithTypeZero() {
        assertThat(AethSyndrome.ack(0)).isEqualTo(0x00);
        assertThat(AethSyndrome.ack(5)).isEqualTo(0x05);
        assertThat(AethSyndrome.ack(AethSyndrome.CREDITS_INVALID)).isEqualTo(0x1F);
        for (int credits = 0; credits < 32; credits++) {
            assertThat(AethSyndrome.isAck(AethSyndrome.ack(credits))).isTrue();
            assertThat(AethSyndrome.value(AethSyndrome.ack(credits))).isEqualTo(credits);
        }
    }

    @Test
    void rnrNakEncodesTheTimerCodeWithType01() {
        assertThat(AethSyndrome.rnrNak(0)).isEqualTo(0x20);
        assertThat(AethSyndrome.rnrNak(14)).isEqualTo(0x2E);
        assertThat(AethSyndrome.rnrNak(31)).isEqualTo(0x3F);
        for (int code = 0; code < 32; code++) {
            assertThat(AethSyndrome.isRnrNak(AethSyndrome.rnrNak(code))).isTrue();
            assertThat(AethSyndrome.value(AethSyndrome.rnrNak(code))).isEqualTo(code);
        }
    }

    @Test
    void nakEncodesEachCodeWithType11() {
        assertThat(AethSyndrome.nak(NakCode.PSN_SEQUENCE_ERROR)).isEqualTo(0x60);
        assertThat(AethSyndrome.nak(NakCode.INVALID_REQUEST)).isEqualTo(0x61);
        assertThat(AethSyndrome.nak(NakCode.REMOTE_ACCESS_ERROR)).isEqualTo(0x62);
        assertThat(AethSyndrome.nak(NakCode.REMOTE_OPERATIONAL_ERROR)).isEqualTo(0x63);
        assertThat(AethSyndrome.nak(NakCode.INVALID_RD_REQUEST)).isEqualTo(0x64);
        for (NakCode code : NakCode.values()) {
            assertThat(AethSyndrome.isNak(AethSyndrome.nak(code))).isTrue();
            assertThat(NakCode.of(AethSyndrome.value(AethSyndrome.nak(code)))).isSameAs(code);
        }
    }
}
