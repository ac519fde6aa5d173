package io.jrxe.tools.conformance;

import io.jrxe.verbs.QpState;
import io.jrxe.verbs.WcStatus;
import io.jrxe.wire.header.NakCode;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.psn.Psn;

import java.util.List;

import static io.jrxe.tools.conformance.ConformanceCase.of;
import static io.jrxe.tools.conformance.Expect.ack;
import static io.jrxe.tools.conformance.Expect.nak;
import static io.jrxe.tools.conformance.PacketRecipe.send;
import static io.jrxe.tools.conformance.PacketRecipe.write;
import static io.jrxe.tools.conformance.Reference.IBTA;
import static io.jrxe.tools.conformance.Reference.RXE;
import static io.jrxe.tools.conformance.TargetLayout.WRITE_AT;

/** The PSN window of an RC responder: in order, duplicates, gaps, far future and past, the wrap at 2^24. */
final class PsnCases {
    private static final String G = "psn";
    private static final int MTU = CaseTable.MTU;

    private PsnCases() {
    }

    static PacketRecipe write8(int psn) {
        return write(Opcode.RC_RDMA_WRITE_ONLY, WRITE_AT, 8, 8).psn(psn);
    }

    static List<ConformanceCase> all() {
        return List.of(
            of("PSN-01", G, "WRITE at the expected PSN is executed", IBTA)
                .step(write8(0), ack(0)).memory(WRITE_AT, 8, 0x5A).state(QpState.RTS).build(),
            of("PSN-02", G, "duplicate WRITE is acknowledged again", IBTA)
                .step(write8(0), ack(0)).step(write8(0), ack(0)).counter("duplicate_request", 1).build(),
            of("PSN-03", G, "duplicate SEND is acknowledged, not received twice", IBTA)
                .step(send(Opcode.RC_SEND_ONLY, 16), ack(0)).step(send(Opcode.RC_SEND_ONLY, 16), ack(0))
                .completion(WcStatus.SUCCESS, 16).noCompletion().build(),
            of("PSN-04", G, "a gap gets a PSN sequence error NAK for the expected PSN", IBTA)
                .note("the QP stays in RTS: a sequence NAK is not an error")
                .step(write8(1), nak(0, NakCode.PSN_SEQUENCE_ERROR)).counter("out_of_seq_request", 1)
                .state(QpState.RTS).build(),
            of("PSN-05", G, "one sequence NAK per gap, not one per packet", IBTA)
                .step(write8(1), nak(0, NakCode.PSN_SEQUENCE_ERROR)).silent(write8(2))
                .counter("out_of_seq_request", 2).build(),
            of("PSN-06", G, "the expected PSN after a gap resumes the stream", IBTA)
                .step(write8(1), nak(0, NakCode.PSN_SEQUENCE_ERROR)).step(write8(0), ack(0)).step(write8(1), ack(1))
                .state(QpState.RTS).build(),
            of("PSN-07", G, "far future (expected + 2^23 - 1) is out of sequence", RXE)
                .note("rxe splits the PSN space in halves: anything ahead within 2^23 is a gap")
                .step(write8(Psn.HALF - 1), nak(0, NakCode.PSN_SEQUENCE_ERROR)).build(),
            of("PSN-08", G, "far past (expected - 2^23) is a duplicate, re-acknowledged", RXE)
                .note("IBTA bounds the duplicate window by the responder's history; rxe takes the whole back half")
                .step(write8(-Psn.HALF), ack(-1)).counter("duplicate_request", 1).build(),
            of("PSN-09", G, "the PSN just before the first is a duplicate", IBTA)
                .step(write8(-1), ack(-1)).counter("duplicate_request", 1).memory(WRITE_AT, 8, 0).build(),
            of("PSN-10", G, "the PSN wraps from 0xffffff to 0", IBTA).startPsn(Psn.MASK)
                .step(write8(0), ack(0)).step(write8(1), ack(1)).build(),
            of("PSN-11", G, "a message across the wrap", IBTA).startPsn(Psn.MASK)
                .step(write(Opcode.RC_RDMA_WRITE_FIRST, WRITE_AT, 2 * MTU, MTU), ack(0))
                .step(write(Opcode.RC_RDMA_WRITE_LAST, 0, 0, MTU).psn(1), ack(1)).memory(WRITE_AT, 2 * MTU, 0x5A).build(),
            of("PSN-12", G, "a gap across the wrap", IBTA).startPsn(Psn.MASK - 1)
                .step(write8(2), nak(0, NakCode.PSN_SEQUENCE_ERROR)).build());
    }
}
