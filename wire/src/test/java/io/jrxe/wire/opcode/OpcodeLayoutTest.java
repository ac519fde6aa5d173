package io.jrxe.wire.opcode;

import static io.jrxe.wire.opcode.ExtensionHeader.AETH;
import static io.jrxe.wire.opcode.ExtensionHeader.ATOMIC_ACK_ETH;
import static io.jrxe.wire.opcode.ExtensionHeader.ATOMIC_ETH;
import static io.jrxe.wire.opcode.ExtensionHeader.DETH;
import static io.jrxe.wire.opcode.ExtensionHeader.FETH;
import static io.jrxe.wire.opcode.ExtensionHeader.IMMDT;
import static io.jrxe.wire.opcode.ExtensionHeader.RETH;
import static org.assertj.core.api.Assertions.assertThat;

import io.jrxe.wire.header.AethFlyweight;
import io.jrxe.wire.header.AtomicAckEthFlyweight;
import io.jrxe.wire.header.AtomicEthFlyweight;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.header.DethFlyweight;
import io.jrxe.wire.header.FethFlyweight;
import io.jrxe.wire.header.IethFlyweight;
import io.jrxe.wire.header.ImmDtFlyweight;
import io.jrxe.wire.header.RethFlyweight;
import org.junit.jupiter.api.Test;

/** Where each header starts, and where the payload starts, for every opcode. */
class OpcodeLayoutTest {
    @Test
    void extensionHeaderLengthsAgreeWithTheFlyweights() {
        assertThat(new int[] {ExtensionHeader.DETH.length(), ExtensionHeader.FETH.length(),
                ExtensionHeader.RETH.length(), ExtensionHeader.ATOMIC_ETH.length(), ExtensionHeader.AETH.length(),
                ExtensionHeader.ATOMIC_ACK_ETH.length(), ExtensionHeader.IMMDT.length(), ExtensionHeader.IETH.length(),
                ExtensionHeader.CNP_RESERVED.length()})
                .containsExactly(DethFlyweight.LENGTH, FethFlyweight.LENGTH, RethFlyweight.LENGTH,
                        AtomicEthFlyweight.LENGTH, AethFlyweight.LENGTH, AtomicAckEthFlyweight.LENGTH,
                        ImmDtFlyweight.LENGTH, IethFlyweight.LENGTH, 16);
    }

    @Test
    void headerLengthIsTheBthPlusEveryExtensionHeader() {
        for (Opcode opcode : Opcode.values()) {
            int sum = BthFlyweight.LENGTH;
            for (int i = 0; i < opcode.headerCount(); i++) {
                sum += opcode.header(i).length();
            }
            assertThat(opcode.headerLength()).as("headerLength of %s", opcode).isEqualTo(sum);
        }
    }

    @Test
    void eachHeaderStartsWhereThePreviousEnds() {
        for (Opcode opcode : Opcode.values()) {
            int expected = BthFlyweight.LENGTH;
            for (int i = 0; i < opcode.headerCount(); i++) {
                assertThat(opcode.offsetOf(opcode.header(i))).as("offset of %s in %s", opcode.header(i), opcode)
                        .isEqualTo(expected);
                expected += opcode.header(i).length();
            }
            for (ExtensionHeader header : ExtensionHeader.values()) {
                if (!opcode.has(header)) {
                    assertThat(opcode.offsetOf(header)).as("offset of absent %s in %s", header, opcode).isEqualTo(-1);
                }
            }
        }
    }

    @Test
    void headersFollowTheEnumsWireOrder() {
        for (Opcode opcode : Opcode.values()) {
            for (int i = 1; i < opcode.headerCount(); i++) {
                assertThat(opcode.header(i).ordinal()).as("header %d of %s", i, opcode)
                        .isGreaterThan(opcode.header(i - 1).ordinal());
            }
        }
    }

    @Test
    void offsetsOfTheOpcodesWithTwoExtensionHeaders() {
        assertThat(Opcode.RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE.offsetOf(RETH)).isEqualTo(12);
        assertThat(Opcode.RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE.offsetOf(IMMDT)).isEqualTo(28);
        assertThat(Opcode.RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE.headerLength()).isEqualTo(32);

        assertThat(Opcode.RC_ATOMIC_ACKNOWLEDGE.offsetOf(AETH)).isEqualTo(12);
        assertThat(Opcode.RC_ATOMIC_ACKNOWLEDGE.offsetOf(ATOMIC_ACK_ETH)).isEqualTo(16);
        assertThat(Opcode.RC_ATOMIC_ACKNOWLEDGE.headerLength()).isEqualTo(24);

        assertThat(Opcode.RC_FLUSH.offsetOf(FETH)).isEqualTo(12);
        assertThat(Opcode.RC_FLUSH.offsetOf(RETH)).isEqualTo(16);
        assertThat(Opcode.RC_FLUSH.headerLength()).isEqualTo(32);

        assertThat(Opcode.UD_SEND_ONLY_WITH_IMMEDIATE.offsetOf(DETH)).isEqualTo(12);
        assertThat(Opcode.UD_SEND_ONLY_WITH_IMMEDIATE.offsetOf(IMMDT)).isEqualTo(20);
        assertThat(Opcode.UD_SEND_ONLY_WITH_IMMEDIATE.headerLength()).isEqualTo(24);
    }

    @Test
    void headerLengthsOfCommonOpcodes() {
        assertThat(Opcode.RC_SEND_MIDDLE.headerLength()).isEqualTo(12);
        assertThat(Opcode.RC_RDMA_WRITE_FIRST.headerLength()).isEqualTo(28);
        assertThat(Opcode.RC_ACKNOWLEDGE.headerLength()).isEqualTo(16);
        assertThat(Opcode.RC_FETCH_ADD.offsetOf(ATOMIC_ETH)).isEqualTo(12);
        assertThat(Opcode.RC_FETCH_ADD.headerLength()).isEqualTo(40);
        assertThat(Opcode.UD_SEND_ONLY.headerLength()).isEqualTo(20);
        assertThat(Opcode.CNP.headerLength()).isEqualTo(28);
    }
}
