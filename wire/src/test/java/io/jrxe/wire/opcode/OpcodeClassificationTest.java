package io.jrxe.wire.opcode;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What the table says about each opcode beyond its headers: transport, position, direction. */
class OpcodeClassificationTest {
    /** IBTA table 38: the top three bits of the opcode select the transport; 100 is the RoCEv2 CNP. */
    @Test
    void transportIsTheTopThreeBitsOfTheCode() {
        Transport[] byTopBits = {Transport.RC, Transport.UC, Transport.RD, Transport.UD, Transport.CNP};
        for (Opcode opcode : Opcode.values()) {
            assertThat(opcode.transport()).as("transport of %s", opcode).isEqualTo(byTopBits[opcode.code() >>> 5]);
        }
    }

    @Test
    void positionIsSpelledInTheName() {
        for (Opcode opcode : Opcode.values()) {
            String name = opcode.name();
            MessagePosition expected = name.contains("_FIRST") ? MessagePosition.FIRST
                    : name.contains("_MIDDLE") ? MessagePosition.MIDDLE
                    : name.contains("_LAST") ? MessagePosition.LAST
                    : MessagePosition.ONLY;
            assertThat(opcode.position()).as("position of %s", opcode).isEqualTo(expected);
        }
    }

    @Test
    void startsAndEndsOfEachPosition() {
        assertThat(MessagePosition.FIRST.starts()).isTrue();
        assertThat(MessagePosition.FIRST.ends()).isFalse();
        assertThat(MessagePosition.MIDDLE.starts()).isFalse();
        assertThat(MessagePosition.MIDDLE.ends()).isFalse();
        assertThat(MessagePosition.LAST.starts()).isFalse();
        assertThat(MessagePosition.LAST.ends()).isTrue();
        assertThat(MessagePosition.ONLY.starts()).isTrue();
        assertThat(MessagePosition.ONLY.ends()).isTrue();
    }

    @Test
    void responsesAreReadResponsesAndAcknowledgements() {
        Set<Opcode> responses = EnumSet.of(Opcode.RC_RDMA_READ_RESPONSE_FIRST, Opcode.RC_RDMA_READ_RESPONSE_MIDDLE,
                Opcode.RC_RDMA_READ_RESPONSE_LAST, Opcode.RC_RDMA_READ_RESPONSE_ONLY, Opcode.RC_ACKNOWLEDGE,
                Opcode.RC_ATOMIC_ACKNOWLEDGE);
        for (Opcode opcode : Opcode.values()) {
            boolean response = responses.contains(opcode);
            assertThat(opcode.isResponse()).as("isResponse of %s", opcode).isEqualTo(response);
            assertThat(opcode.isRequest()).as("isRequest of %s", opcode)
                    .isEqualTo(!response && opcode != Opcode.CNP);
        }
        assertThat(Opcode.CNP.isRequest()).isFalse();
        assertThat(Opcode.CNP.isResponse()).isFalse();
        assertThat(Opcode.RC_RDMA_READ_REQUEST.isRequest()).isTrue();
        assertThat(Opcode.UD_SEND_ONLY.isRequest()).isTrue();
    }

    @Test
    void operationsGroupTheOpcodes() {
        assertThat(Opcode.RC_SEND_LAST_WITH_INVALIDATE.operation()).isEqualTo(Operation.SEND);
        assertThat(Opcode.UC_RDMA_WRITE_MIDDLE.operation()).isEqualTo(Operation.RDMA_WRITE);
        assertThat(Opcode.RC_RDMA_READ_REQUEST.operation()).isEqualTo(Operation.RDMA_READ_REQUEST);
        assertThat(Opcode.RC_RDMA_READ_RESPONSE_MIDDLE.operation()).isEqualTo(Operation.RDMA_READ_RESPONSE);
        assertThat(Opcode.RC_ACKNOWLEDGE.operation()).isEqualTo(Operation.ACKNOWLEDGE);
        assertThat(Opcode.RC_ATOMIC_ACKNOWLEDGE.operation()).isEqualTo(Operation.ATOMIC_ACKNOWLEDGE);
        assertThat(Opcode.RC_COMPARE_SWAP.operation()).isEqualTo(Operation.COMPARE_SWAP);
        assertThat(Opcode.RC_FETCH_ADD.operation()).isEqualTo(Operation.FETCH_ADD);
        assertThat(Opcode.RC_FLUSH.operation()).isEqualTo(Operation.FLUSH);
        assertThat(Opcode.RC_ATOMIC_WRITE.operation()).isEqualTo(Operation.ATOMIC_WRITE);
        assertThat(Opcode.CNP.operation()).isEqualTo(Operation.CNP);
        for (Opcode opcode : Opcode.values()) {
            String name = opcode.name();
            if (name.contains("_SEND_")) {
                assertThat(opcode.operation()).as("operation of %s", opcode).isEqualTo(Operation.SEND);
            } else if (name.contains("_RDMA_WRITE_")) {
                assertThat(opcode.operation()).as("operation of %s", opcode).isEqualTo(Operation.RDMA_WRITE);
            }
        }
    }

    @Test
    void immediateAndInvalidateFlags() {
        Set<Opcode> immediate = EnumSet.of(Opcode.RC_SEND_LAST_WITH_IMMEDIATE, Opcode.RC_SEND_ONLY_WITH_IMMEDIATE,
                Opcode.RC_RDMA_WRITE_LAST_WITH_IMMEDIATE, Opcode.RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE,
                Opcode.UC_SEND_LAST_WITH_IMMEDIATE, Opcode.UC_SEND_ONLY_WITH_IMMEDIATE,
                Opcode.UC_RDMA_WRITE_LAST_WITH_IMMEDIATE, Opcode.UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE,
                Opcode.UD_SEND_ONLY_WITH_IMMEDIATE);
        Set<Opcode> invalidate = EnumSet.of(Opcode.RC_SEND_LAST_WITH_INVALIDATE, Opcode.RC_SEND_ONLY_WITH_INVALIDATE);
        for (Opcode opcode : Opcode.values()) {
            assertThat(opcode.hasImmediate()).as("hasImmediate of %s", opcode).isEqualTo(immediate.contains(opcode));
            assertThat(opcode.hasInvalidate()).as("hasInvalidate of %s", opcode)
                    .isEqualTo(invalidate.contains(opcode));
        }
    }

    @Test
    void displayNamesAreWiresharksSpelling() {
        assertThat(Opcode.RC_SEND_ONLY_WITH_IMMEDIATE.displayName()).isEqualTo("RC SEND_ONLY_WITH_IMMEDIATE");
        assertThat(Opcode.UC_RDMA_WRITE_FIRST.displayName()).isEqualTo("UC RDMA_WRITE_FIRST");
        assertThat(Opcode.UD_SEND_ONLY.displayName()).isEqualTo("UD SEND_ONLY");
        assertThat(Opcode.CNP.displayName()).isEqualTo("CNP");
    }

    @Test
    void ofIgnoresBitsAboveTheOpcodeByte() {
        assertThat(Opcode.of(0x100 | 0x06)).isSameAs(Opcode.RC_RDMA_WRITE_FIRST);
        assertThat(Opcode.of(-1)).as("0xFF is reserved").isNull();
    }
}
