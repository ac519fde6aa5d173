package io.jrxe.tools.conformance;

import io.jrxe.wire.header.AethFlyweight;
import io.jrxe.wire.header.AethSyndrome;
import io.jrxe.wire.header.AtomicAckEthFlyweight;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.header.NakCode;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.opcode.ExtensionHeader;
import io.jrxe.wire.opcode.Opcode;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The matcher passes exactly the expected answers and names what differs in any other. */
class AnswerMatcherTest {
    private static final int START = 0xFFFFFE;
    private static final CaseContext C = new CaseContext(0x100, START, 0x11, 0x200000, 0x7000_0000L, 0x1da,
            new TargetKeys(1, 2, 3, 4, 5, 0), -1, CaseTable.MTU);

    private static Answer answer(Opcode op, int psnOffset, int syndrome, long original, int payload, byte fill) {
        byte[] b = new byte[op.headerLength() + payload + IcrcCalculator.LENGTH];
        ByteBuffer bb = ByteBuffer.wrap(b);
        new BthFlyweight().wrap(bb, 0).set(op.code(), false, 0, 0xFFFF, C.testerQpn(), false, C.psn(psnOffset));
        if (op.has(ExtensionHeader.AETH)) {
            new AethFlyweight().wrap(bb, op.offsetOf(ExtensionHeader.AETH)).set(syndrome, 1);
        }
        if (op.has(ExtensionHeader.ATOMIC_ACK_ETH)) {
            new AtomicAckEthFlyweight().wrap(bb, op.offsetOf(ExtensionHeader.ATOMIC_ACK_ETH)).originalData(original);
        }
        for (int i = 0; i < payload; i++) {
            b[op.headerLength() + i] = fill == 0 ? TargetLayout.readPattern(i) : fill;
        }
        return Answer.parse(b, true);
    }

    private static Answer ack(int psn) {
        return answer(Opcode.RC_ACKNOWLEDGE, psn, AethSyndrome.ack(AethSyndrome.CREDITS_INVALID), 0, 0, (byte) 0);
    }

    private static Answer nak(int psn, NakCode code) {
        return answer(Opcode.RC_ACKNOWLEDGE, psn, AethSyndrome.nak(code), 0, 0, (byte) 0);
    }

    @Test
    void theExpectedAnswersMatchAcrossTheWrap() {
        assertThat(AnswerMatcher.mismatch(List.of(Expect.ack(0), Expect.ack(2)), List.of(ack(0), ack(2)), C)).isNull();
        assertThat(ack(2).psn()).as("the PSN wrapped").isEqualTo(0);
        assertThat(AnswerMatcher.mismatch(Expect.nak(1, NakCode.INVALID_REQUEST), nak(1, NakCode.INVALID_REQUEST), C)).isNull();
        assertThat(AnswerMatcher.mismatch(Expect.read(0, 0, 16, CaseTable.MTU),
                List.of(answer(Opcode.RC_RDMA_READ_RESPONSE_ONLY, 0, 0, 0, 16, (byte) 0)), C)).isNull();
    }

    @Test
    void aWrongAnswerIsNamed() {
        assertThat(AnswerMatcher.mismatch(Expect.ack(0), nak(0, NakCode.REMOTE_ACCESS_ERROR), C))
                .isEqualTo("NAK remote access error instead of ACK credits=invalid");
        assertThat(AnswerMatcher.mismatch(Expect.nak(0, NakCode.INVALID_REQUEST), nak(0, NakCode.REMOTE_ACCESS_ERROR), C))
                .contains("NAK remote access error instead of NAK invalid request");
        assertThat(AnswerMatcher.mismatch(Expect.ack(0), ack(1), C)).isEqualTo("PSN +1 instead of +0");
        assertThat(AnswerMatcher.mismatch(Expect.rnr(0), nak(0, NakCode.PSN_SEQUENCE_ERROR), C)).contains("instead of RNR NAK");
        assertThat(AnswerMatcher.mismatch(Expect.atomicAck(0, 5),
                answer(Opcode.RC_ATOMIC_ACKNOWLEDGE, 0, 0, 6, 0, (byte) 0), C)).isEqualTo("original value 0x6, not 0x5");
        assertThat(AnswerMatcher.mismatch(Expect.read(0, 0, 16, CaseTable.MTU),
                List.of(answer(Opcode.RC_RDMA_READ_RESPONSE_ONLY, 0, 0, 0, 16, (byte) 0x5A)), C)).startsWith("data byte 0 is 0x5a");
        assertThat(AnswerMatcher.mismatch(Expect.read(0, 0, 16, CaseTable.MTU), List.of(ack(0)), C))
                .contains("instead of RC RDMA_READ_RESPONSE_ONLY");
    }

    @Test
    void silenceAndCountsAreChecked() {
        assertThat(AnswerMatcher.mismatch(List.of(), List.of(ack(0)), C)).isEqualTo("an answer where silence was expected");
        assertThat(AnswerMatcher.mismatch(List.of(Expect.ack(0)), List.of(), C)).isEqualTo("no answer");
        assertThat(AnswerMatcher.mismatch(List.of(Expect.ack(0)), List.of(ack(0), ack(0)), C)).startsWith("more answers");
        byte[] shortPacket = new byte[10];
        assertThat(AnswerMatcher.mismatch(Expect.ack(0), Answer.parse(shortPacket, true), C)).isEqualTo("a malformed answer");
        byte[] good = new byte[BthFlyweight.LENGTH + 4 + IcrcCalculator.LENGTH];
        new BthFlyweight().wrap(ByteBuffer.wrap(good), 0).set(Opcode.RC_ACKNOWLEDGE.code(), false, 0, 0xFFFF, 0x100, false, START);
        assertThat(AnswerMatcher.mismatch(Expect.ack(0), Answer.parse(good, false), C)).isEqualTo("an answer with a bad ICRC");
    }
}
