package io.jrxe.tools.conformance;

import io.jrxe.verbs.QpState;
import io.jrxe.wire.header.NakCode;
import io.jrxe.wire.opcode.Opcode;

import java.util.List;

import static io.jrxe.tools.conformance.ConformanceCase.of;
import static io.jrxe.tools.conformance.Expect.ack;
import static io.jrxe.tools.conformance.Expect.nak;
import static io.jrxe.tools.conformance.PacketRecipe.read;
import static io.jrxe.tools.conformance.PacketRecipe.send;
import static io.jrxe.tools.conformance.PacketRecipe.write;
import static io.jrxe.tools.conformance.Reference.IBTA;
import static io.jrxe.tools.conformance.TargetLayout.READ_AT;
import static io.jrxe.tools.conformance.TargetLayout.WRITE_AT;

/**
 * The opcode sequence of an RC responder (IBTA 9.7.5.1.x, rxe's check_op_seq): a MIDDLE or LAST needs a FIRST
 * before it, a FIRST or ONLY may not start inside a message, a message keeps its operation. Each break is a NAK
 * invalid request and the error state.
 */
final class SequenceCases {
    private static final String G = "opcode-sequence";
    private static final int MTU = CaseTable.MTU;

    private SequenceCases() {
    }

    private static PacketRecipe writeFirst() {
        return write(Opcode.RC_RDMA_WRITE_FIRST, WRITE_AT, 3L * MTU, MTU);
    }

    private static ConformanceCase.Builder invalid(String id, String name) {
        return of(id, G, name, IBTA);
    }

    static List<ConformanceCase> all() {
        Expect invalid0 = nak(0, NakCode.INVALID_REQUEST);
        Expect invalid1 = nak(1, NakCode.INVALID_REQUEST);
        return List.of(
            of("SEQ-01", G, "WRITE FIRST, MIDDLE, LAST is executed", IBTA)
                .step(writeFirst(), ack(0)).step(write(Opcode.RC_RDMA_WRITE_MIDDLE, 0, 0, MTU).psn(1), ack(1))
                .step(write(Opcode.RC_RDMA_WRITE_LAST, 0, 0, MTU).psn(2), ack(2)).memory(WRITE_AT, 3 * MTU, 0x5A).build(),
            invalid("SEQ-02", "WRITE MIDDLE without FIRST")
                .step(write(Opcode.RC_RDMA_WRITE_MIDDLE, 0, 0, MTU), invalid0).state(QpState.ERR).build(),
            invalid("SEQ-03", "WRITE LAST without FIRST")
                .step(write(Opcode.RC_RDMA_WRITE_LAST, 0, 0, 8), invalid0).state(QpState.ERR).build(),
            invalid("SEQ-04", "SEND MIDDLE without FIRST")
                .step(send(Opcode.RC_SEND_MIDDLE, MTU), invalid0).state(QpState.ERR).build(),
            invalid("SEQ-05", "SEND LAST without FIRST")
                .step(send(Opcode.RC_SEND_LAST, 8), invalid0).state(QpState.ERR).build(),
            invalid("SEQ-06", "WRITE FIRST twice")
                .step(writeFirst(), ack(0)).step(writeFirst().psn(1), invalid1).state(QpState.ERR).build(),
            invalid("SEQ-07", "SEND FIRST then WRITE MIDDLE (the operation changes)")
                .step(send(Opcode.RC_SEND_FIRST, MTU), ack(0)).step(write(Opcode.RC_RDMA_WRITE_MIDDLE, 0, 0, MTU).psn(1), invalid1)
                .state(QpState.ERR).build(),
            invalid("SEQ-08", "WRITE ONLY inside a WRITE message")
                .step(writeFirst(), ack(0)).step(write(Opcode.RC_RDMA_WRITE_ONLY, WRITE_AT, 8, 8).psn(1), invalid1).build(),
            invalid("SEQ-09", "SEND ONLY inside a SEND message")
                .step(send(Opcode.RC_SEND_FIRST, MTU), ack(0)).step(send(Opcode.RC_SEND_ONLY, 8).psn(1), invalid1).build(),
            invalid("SEQ-10", "READ request inside a WRITE message")
                .step(writeFirst(), ack(0)).step(read(READ_AT, 8).psn(1), invalid1).build(),
            invalid("SEQ-11", "SEND LAST inside a WRITE message")
                .step(writeFirst(), ack(0)).step(send(Opcode.RC_SEND_LAST, 8).psn(1), invalid1).build(),
            of("SEQ-12", G, "a UC opcode to an RC QP is dropped", IBTA)
                .note("the transport does not match the QP's: silently dropped (rxe's check_type_state)")
                .silent(send(Opcode.UC_SEND_ONLY, 8)).counter("jrxe_drop_wrong_transport", 1).state(QpState.RTS).build());
    }
}
