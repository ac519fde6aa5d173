package io.jrxe.wire.cm;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The flyweights' documented bounds: they read and write with absolute indexes, so a message cut
 * short reads fine up to the cut and throws the buffer's IndexOutOfBoundsException past it;
 * {@link CmMessageFlyweight#fits()} says beforehand whether that can happen. Misuse of a field
 * (a number read as bytes, private data longer than its field) is refused with a message.
 */
class CmFieldBoundsTest {
    @Test
    void aTruncatedMessageReadsUpToItsEndAndThrowsOnlyPastIt() {
        ByteBuffer buffer = ByteBuffer.allocate(60);
        ReqFlyweight req = new ReqFlyweight().wrap(buffer, 0).localCommId(0x11223344).startingPsn(0xabcdef);
        buffer.limit(48);

        assertThat(req.fits()).isFalse();
        assertThat(req.localCommId()).isEqualTo(0x11223344);
        assertThat(req.startingPsn()).isEqualTo(0xabcdef);
        assertThatThrownBy(req::partitionKey).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> req.getPrivateData(new byte[92], 0)).isInstanceOf(IndexOutOfBoundsException.class);

        buffer.limit(buffer.capacity());
        assertThat(new RtuFlyweight().wrap(ByteBuffer.allocate(232), 0).fits()).isTrue();
        assertThat(new RtuFlyweight().wrap(ByteBuffer.allocate(256), 25).fits()).isFalse();
        assertThat(new RtuFlyweight().wrap(ByteBuffer.allocate(256), 24).fits()).isTrue();
    }

    @Test
    void privateDataIsZeroPaddedAndNeverLongerThanItsField() {
        ByteBuffer buffer = ByteBuffer.allocate(232);
        for (int i = 0; i < 232; i++) {
            buffer.put(i, (byte) 0xFF);
        }
        DreqFlyweight dreq = new DreqFlyweight().wrap(buffer, 0);
        dreq.putPrivateData(new byte[] {1, 2, 3}, 0, 3);

        assertThat(dreq.privateDataLength()).isEqualTo(220);
        assertThat(dreq.privateDataOffset()).isEqualTo(12);
        byte[] read = new byte[220];
        dreq.getPrivateData(read, 0);
        assertThat(read[0]).isEqualTo((byte) 1);
        assertThat(read[2]).isEqualTo((byte) 3);
        for (int i = 3; i < 220; i++) {
            assertThat(read[i]).as("byte %d", i).isZero();
        }
        assertThat(buffer.get(11)).as("the reserved byte before it").isEqualTo((byte) 0xFF);
        assertThatThrownBy(() -> dreq.putPrivateData(new byte[221], 0, 221))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("220");
    }

    @Test
    void aFieldIsReadTheWayItIsMadeOf() {
        ByteBuffer buffer = ByteBuffer.allocate(232);
        assertThatThrownBy(() -> ReqFlyweight.PRIMARY_LOCAL_GID.get(buffer, 0)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ReqFlyweight.LOCAL_QPN.copyTo(buffer, 0, new byte[3], 0))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> CmField.number(CmField.Kind.HEX, "x", "x", 0, 4, 64))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CmField.bytes(CmField.Kind.HEX, "x", "x", 0, 4)).isInstanceOf(IllegalArgumentException.class);
        assertThat(ReqFlyweight.PRIMARY_LOCAL_GID.isZero(buffer, 0)).isTrue();
        buffer.put(71, (byte) 1);
        assertThat(ReqFlyweight.PRIMARY_LOCAL_GID.isZero(buffer, 0)).isFalse();
        assertThat(ReqFlyweight.RESERVED_90_4.name()).isEqualTo("reserved_90_4");
    }
}
