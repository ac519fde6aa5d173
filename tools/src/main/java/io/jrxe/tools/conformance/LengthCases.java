package io.jrxe.tools.conformance;

import io.jrxe.verbs.QpState;
import io.jrxe.verbs.WcStatus;
import io.jrxe.wire.header.NakCode;
import io.jrxe.wire.opcode.Opcode;

import java.util.List;

import static io.jrxe.tools.conformance.ConformanceCase.of;
import static io.jrxe.tools.conformance.Expect.ack;
import static io.jrxe.tools.conformance.Expect.nak;
import static io.jrxe.tools.conformance.PacketRecipe.fetchAdd;
import static io.jrxe.tools.conformance.PacketRecipe.read;
import static io.jrxe.tools.conformance.PacketRecipe.send;
import static io.jrxe.tools.conformance.PacketRecipe.write;
import static io.jrxe.tools.conformance.Reference.IBTA;
import static io.jrxe.tools.conformance.TargetLayout.ATOMIC_AT;
import static io.jrxe.tools.conformance.TargetLayout.READ_AT;
import static io.jrxe.tools.conformance.TargetLayout.WRITE_AT;

/**
 * Payload lengths and pad counts (IBTA 9.7.5.1.x, rxe's check_length): FIRST and MIDDLE carry exactly the path
 * MTU, no packet more; a WRITE's payloads add up to its RETH length; a SEND fits its receive. A packet whose length
 * cannot hold what its opcode and pad count say is malformed and silently dropped.
 */
final class LengthCases {
    private static final String G = "length";
    private static final int MTU = CaseTable.MTU;

    private LengthCases() {
    }

    private static ConformanceCase.Builder invalid(String id, String name, PacketRecipe packet) {
        return of(id, G, name, IBTA).step(packet, nak(0, NakCode.INVALID_REQUEST)).state(QpState.ERR);
    }

    static List<ConformanceCase> all() {
        return List.of(
            invalid("LEN-01", "WRITE ONLY payload longer than its RETH length",
                write(Opcode.RC_RDMA_WRITE_ONLY, WRITE_AT, 8, 16)).memory(WRITE_AT, 16, 0).build(),
            invalid("LEN-02", "WRITE ONLY payload shorter than its RETH length",
                write(Opcode.RC_RDMA_WRITE_ONLY, WRITE_AT, 16, 8)).build(),
            invalid("LEN-03", "WRITE FIRST payload shorter than the path MTU",
                write(Opcode.RC_RDMA_WRITE_FIRST, WRITE_AT, 2L * MTU, MTU / 2)).build(),
            of("LEN-04", G, "WRITE MIDDLE payload shorter than the path MTU", IBTA)
                .step(write(Opcode.RC_RDMA_WRITE_FIRST, WRITE_AT, 3L * MTU, MTU), ack(0))
                .step(write(Opcode.RC_RDMA_WRITE_MIDDLE, 0, 0, MTU / 2).psn(1), nak(1, NakCode.INVALID_REQUEST)).build(),
            // MTU + 4, not more: the packet must still fit a 1500-byte Ethernet link (the lab's), or it never leaves.
            invalid("LEN-05", "WRITE ONLY payload larger than the path MTU",
                write(Opcode.RC_RDMA_WRITE_ONLY, WRITE_AT, MTU + 4L, MTU + 4)).build(),
            invalid("LEN-06", "SEND ONLY payload larger than the path MTU", send(Opcode.RC_SEND_ONLY, MTU + 4)).build(),
            of("LEN-07", G, "pad count larger than the bytes after the headers: dropped", IBTA)
                .silent(write(Opcode.RC_RDMA_WRITE_ONLY, WRITE_AT, 0, 0).padCount(3)).counter("jrxe_drop_malformed", 1)
                .state(QpState.RTS).build(),
            invalid("LEN-08", "pad count 3 on a WRITE of 8 bytes: 5 bytes of payload for a RETH of 8",
                write(Opcode.RC_RDMA_WRITE_ONLY, WRITE_AT, 8, 8).padCount(3)).build(),
            of("LEN-09", G, "SEND longer than its receive buffer", IBTA)
                .note("a local length error on the responder: NAK invalid request, the receive fails with LOC_LEN_ERR")
                .step(send(Opcode.RC_SEND_FIRST, MTU), ack(0)).step(send(Opcode.RC_SEND_MIDDLE, MTU).psn(1), ack(1))
                .step(send(Opcode.RC_SEND_LAST, MTU).psn(2), nak(2, NakCode.INVALID_REQUEST))
                .completion(WcStatus.LOC_LEN_ERR, 0).state(QpState.ERR).build(),
            of("LEN-10", G, "READ of 3000 bytes comes back as FIRST, MIDDLE, LAST", IBTA)
                .step(read(READ_AT, 3000), Expect.read(0, 0, 3000, MTU)).build(),
            of("LEN-11", G, "READ request carrying a payload is malformed: dropped", IBTA)
                .silent(read(READ_AT, 8).payload(4)).counter("jrxe_drop_malformed", 1).build(),
            of("LEN-12", G, "FETCH_ADD carrying a payload is malformed: dropped", IBTA)
                .silent(fetchAdd(ATOMIC_AT, 1).payload(8)).counter("jrxe_drop_malformed", 1).build(),
            of("LEN-13", G, "SEND of zero bytes completes a receive of 0 bytes", IBTA)
                .step(send(Opcode.RC_SEND_ONLY, 0), ack(0)).completion(WcStatus.SUCCESS, 0).build(),
            of("LEN-14", G, "SEND of 3 bytes: pad count 1", IBTA)
                .step(send(Opcode.RC_SEND_ONLY, 3), ack(0)).completion(WcStatus.SUCCESS, 3).build());
    }
}
