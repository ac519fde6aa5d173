package io.jrxe.tools.conformance;

import io.jrxe.verbs.QpState;
import io.jrxe.wire.header.NakCode;
import io.jrxe.wire.opcode.Opcode;

import java.util.List;

import static io.jrxe.tools.conformance.ConformanceCase.of;
import static io.jrxe.tools.conformance.Expect.ack;
import static io.jrxe.tools.conformance.Expect.atomicAck;
import static io.jrxe.tools.conformance.Expect.nak;
import static io.jrxe.tools.conformance.Expect.rnr;
import static io.jrxe.tools.conformance.PacketRecipe.compareSwap;
import static io.jrxe.tools.conformance.PacketRecipe.fetchAdd;
import static io.jrxe.tools.conformance.PacketRecipe.read;
import static io.jrxe.tools.conformance.PacketRecipe.send;
import static io.jrxe.tools.conformance.PacketRecipe.write;
import static io.jrxe.tools.conformance.Reference.IBTA;
import static io.jrxe.tools.conformance.Reference.RXE;
import static io.jrxe.tools.conformance.TargetLayout.*;

/**
 * The responder's own resources: receives (none left: an RNR NAK with the QP's min_rnr_timer, the PSN still
 * expected), atomics (8-byte aligned, executed once), and the READ and atomic replay from the responder resources.
 */
final class ResponderCases {
    private static final int MTU = CaseTable.MTU;
    private static final long SWAPPED = 0x5555_6666_7777_8888L;

    private ResponderCases() {
    }

    private static ConformanceCase.Builder afterReceivesUsed(String id, String name) {
        return of(id, "rnr", name, IBTA).step(send(Opcode.RC_SEND_ONLY, 8), ack(0))
                .step(send(Opcode.RC_SEND_ONLY, 8).psn(1), ack(1));
    }

    static List<ConformanceCase> receiverNotReady() {
        return List.of(
            afterReceivesUsed("RNR-01", "SEND with no receive posted: RNR NAK with the QP's timer")
                .step(send(Opcode.RC_SEND_ONLY, 8).psn(2), rnr(2)).counter("send_rnr_err", 1).state(QpState.RTS).build(),
            afterReceivesUsed("RNR-02", "the SEND retried after an RNR NAK gets it again (the PSN stays expected)")
                .step(send(Opcode.RC_SEND_ONLY, 8).psn(2), rnr(2)).step(send(Opcode.RC_SEND_ONLY, 8).psn(2), rnr(2)).build(),
            afterReceivesUsed("RNR-03", "WRITE with immediate and no receive: RNR NAK, nothing written")
                .step(write(Opcode.RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE, WRITE_AT, 8, 8).psn(2), rnr(2))
                .memory(WRITE_AT, 8, 0).build(),
            afterReceivesUsed("RNR-04", "WRITE without immediate needs no receive")
                .step(write(Opcode.RC_RDMA_WRITE_ONLY, WRITE_AT, 8, 8).psn(2), ack(2)).build(),
            afterReceivesUsed("RNR-05", "SEND FIRST with no receive: RNR NAK at the FIRST")
                .step(send(Opcode.RC_SEND_FIRST, MTU).psn(2), rnr(2)).build());
    }

    static List<ConformanceCase> atomics() {
        String g = "atomic";
        return List.of(
            of("ATM-01", g, "FETCH_ADD returns the old value and adds", IBTA)
                .step(fetchAdd(ATOMIC_AT, 5), atomicAck(0, ATOMIC_START))
                .step(fetchAdd(ATOMIC_AT, 0).psn(1), atomicAck(1, ATOMIC_START + 5)).build(),
            of("ATM-02", g, "COMPARE_SWAP that matches swaps", IBTA)
                .step(compareSwap(ATOMIC_AT, ATOMIC_START, SWAPPED), atomicAck(0, ATOMIC_START))
                .step(fetchAdd(ATOMIC_AT, 0).psn(1), atomicAck(1, SWAPPED)).build(),
            of("ATM-03", g, "COMPARE_SWAP that does not match leaves the value", IBTA)
                .step(compareSwap(ATOMIC_AT, ATOMIC_START + 1, SWAPPED), atomicAck(0, ATOMIC_START))
                .step(fetchAdd(ATOMIC_AT, 0).psn(1), atomicAck(1, ATOMIC_START)).build(),
            of("ATM-04", g, "FETCH_ADD at an address 4 bytes off alignment", IBTA)
                .note("IBTA 9.4.5: an unaligned atomic is an invalid request (rxe: RESPST_ERR_MISALIGNED_ATOMIC)")
                .step(fetchAdd(ATOMIC_AT + 4, 1), nak(0, NakCode.INVALID_REQUEST)).state(QpState.ERR).build(),
            of("ATM-05", g, "COMPARE_SWAP at an address 1 byte off alignment", IBTA)
                .step(compareSwap(ATOMIC_AT + 1, 0, 1), nak(0, NakCode.INVALID_REQUEST)).state(QpState.ERR).build(),
            of("ATM-06", g, "FETCH_ADD on the 8 bytes after the region", IBTA)
                .step(fetchAdd(MAIN_BYTES, 1), nak(0, NakCode.REMOTE_ACCESS_ERROR)).state(QpState.ERR).build(),
            of("ATM-07", g, "the second atomic cell is independent of the first", IBTA)
                .step(fetchAdd(ATOMIC_AT + 8, 1), atomicAck(0, ATOMIC_START))
                .step(fetchAdd(ATOMIC_AT, 0).psn(1), atomicAck(1, ATOMIC_START)).build());
    }

    static List<ConformanceCase> replay() {
        String g = "replay";
        return List.of(
            of("RPL-01", g, "a duplicate READ is answered again", IBTA)
                .step(read(READ_AT, 8), Expect.read(0, 0, 8, MTU)).step(read(READ_AT, 8), Expect.read(0, 0, 8, MTU))
                .counter("duplicate_request", 1).build(),
            of("RPL-02", g, "a duplicate READ of 3 packets is answered again whole", IBTA)
                .step(read(READ_AT, 2500), Expect.read(0, 0, 2500, MTU)).step(read(READ_AT, 2500), Expect.read(0, 0, 2500, MTU))
                .build(),
            of("RPL-03", g, "a duplicate READ from its second PSN is answered as a new READ from there", IBTA)
                .note("the requester asks again from the PSN it lacks, for the rest of the data, and gets FIRST (or "
                    + "ONLY) at that PSN; rxe replays MIDDLE and LAST instead (its completer takes either)")
                .step(read(READ_AT, 2500), Expect.read(0, 0, 2500, MTU))
                .step(read(READ_AT + MTU, 2500 - MTU).psn(1), List.of(
                    new Expect.ReadResponse(1, Opcode.RC_RDMA_READ_RESPONSE_FIRST, MTU, MTU, -1),
                    new Expect.ReadResponse(2, Opcode.RC_RDMA_READ_RESPONSE_LAST, 2 * MTU, 2500 - 2 * MTU, -1))).build(),
            of("RPL-04", g, "a duplicate FETCH_ADD returns the saved value and is not executed again", IBTA)
                .step(fetchAdd(ATOMIC_AT, 5), atomicAck(0, ATOMIC_START))
                .step(fetchAdd(ATOMIC_AT, 5), atomicAck(0, ATOMIC_START))
                .step(fetchAdd(ATOMIC_AT, 0).psn(1), atomicAck(1, ATOMIC_START + 5)).build(),
            of("RPL-05", g, "a duplicate COMPARE_SWAP returns the saved value", IBTA)
                .step(compareSwap(ATOMIC_AT, ATOMIC_START, SWAPPED), atomicAck(0, ATOMIC_START))
                .step(compareSwap(ATOMIC_AT, ATOMIC_START, SWAPPED), atomicAck(0, ATOMIC_START))
                .step(fetchAdd(ATOMIC_AT, 0).psn(1), atomicAck(1, SWAPPED)).build(),
            of("RPL-06", g, "a duplicate atomic with other operands still gets the saved value", IBTA)
                .step(fetchAdd(ATOMIC_AT, 5), atomicAck(0, ATOMIC_START))
                .step(fetchAdd(ATOMIC_AT, 100), atomicAck(0, ATOMIC_START))
                .step(fetchAdd(ATOMIC_AT, 0).psn(1), atomicAck(1, ATOMIC_START + 5)).build(),
            of("RPL-07", g, "a READ older than the responder resources is not replayed", RXE)
                .note("IBTA leaves an evicted READ's duplicate to the responder; rxe drops it, the requester times out")
                .step(read(READ_AT, 8), Expect.read(0, 0, 8, MTU))
                .step(read(READ_AT, 8).psn(1), Expect.read(1, 0, 8, MTU))
                .step(read(READ_AT, 8).psn(2), Expect.read(2, 0, 8, MTU))
                .step(read(READ_AT, 8).psn(3), Expect.read(3, 0, 8, MTU))
                .step(read(READ_AT, 8).psn(4), Expect.read(4, 0, 8, MTU))
                .silent(read(READ_AT, 8)).build(),
            of("RPL-08", g, "a duplicate READ after later WRITEs is still answered", IBTA)
                .step(read(READ_AT, 8), Expect.read(0, 0, 8, MTU))
                .step(write(Opcode.RC_RDMA_WRITE_ONLY, WRITE_AT, 8, 8).psn(1), ack(1))
                .step(read(READ_AT, 8), Expect.read(0, 0, 8, MTU)).build());
    }
}
