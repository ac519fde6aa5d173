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
import static io.jrxe.tools.conformance.Reference.RXE;
import static io.jrxe.tools.conformance.TargetLayout.*;

/**
 * Remote access checks (IBTA 9.7.5.1.x, rxe's check_rkey): the key must name a valid region or window of the QP's
 * PD, with the right for the operation, and cover every byte. A violation is a NAK remote access error, the error
 * state, and no byte written.
 */
final class AccessCases {
    private static final String G = "access";

    private AccessCases() {
    }

    private static PacketRecipe write8(int at, KeyChoice key) {
        return write(Opcode.RC_RDMA_WRITE_ONLY, at, 8, 8).key(key);
    }

    private static ConformanceCase.Builder denied(String id, String name, PacketRecipe packet) {
        return of(id, G, name, IBTA).step(packet, nak(0, NakCode.REMOTE_ACCESS_ERROR)).state(QpState.ERR);
    }

    static List<ConformanceCase> all() {
        return List.of(
            denied("ACC-01", "WRITE with an unknown R_Key", write8(WRITE_AT, KeyChoice.BOGUS)).build(),
            denied("ACC-02", "READ with an unknown R_Key", read(READ_AT, 8).key(KeyChoice.BOGUS)).build(),
            denied("ACC-03", "FETCH_ADD with an unknown R_Key", fetchAdd(ATOMIC_AT, 1).key(KeyChoice.BOGUS)).build(),
            denied("ACC-04", "WRITE with the R_Key of another PD's region", write8(OTHER_PD_AT, KeyChoice.OTHER_PD))
                .memory(OTHER_PD_AT, 8, 0).build(),
            denied("ACC-05", "WRITE past the region's end (4 bytes in, 4 out)", write8(MAIN_BYTES - 4, KeyChoice.MAIN))
                .memory(MAIN_BYTES - 4, 4, 0).build(),
            denied("ACC-06", "READ past the region's end", read(MAIN_BYTES - 4, 8)).build(),
            denied("ACC-07", "READ longer than the region", read(READ_AT, MAIN_BYTES)).build(),
            denied("ACC-08", "WRITE whose address range wraps past 2^64",
                write(Opcode.RC_RDMA_WRITE_ONLY, 0, 0, 16).absoluteVa(0xFFFF_FFFF_FFFF_FFF8L, 16)).build(),
            denied("ACC-09", "WRITE before the region's start", write8(-8, KeyChoice.MAIN)).build(),
            denied("ACC-10", "WRITE with a key lacking REMOTE_WRITE (read-only region)", write8(READ_ONLY_AT, KeyChoice.READ_ONLY))
                .memory(READ_ONLY_AT, 8, 0).build(),
            denied("ACC-11", "READ with a key lacking REMOTE_READ (write-only region)",
                read(WRITE_ONLY_AT, 8).key(KeyChoice.WRITE_ONLY)).build(),
            denied("ACC-12", "FETCH_ADD with a key lacking REMOTE_ATOMIC", fetchAdd(WRITE_ONLY_AT, 1).key(KeyChoice.WRITE_ONLY))
                .memory(WRITE_ONLY_AT, 8, 0).build(),
            denied("ACC-13", "WRITE with a key of no remote right", write8(NO_REMOTE_AT, KeyChoice.NO_REMOTE))
                .memory(NO_REMOTE_AT, 8, 0).build(),
            denied("ACC-14", "WRITE with the key of a deregistered region", write8(DEAD_AT, KeyChoice.DEAD)).build(),
            of("ACC-15", G, "READ with a read-only key is answered", IBTA)
                .step(read(READ_ONLY_AT, 16).key(KeyChoice.READ_ONLY), Expect.readBack(0, 16, CaseTable.MTU, 0)).build(),
            of("ACC-16", G, "WRITE with a write-only key is executed", IBTA)
                .step(write8(WRITE_ONLY_AT, KeyChoice.WRITE_ONLY), ack(0)).memory(WRITE_ONLY_AT, 8, 0x5A).build(),
            of("ACC-17", G, "zero-length WRITE with an unknown key is acknowledged", IBTA)
                .note("a zero-length RDMA operation checks no key (IBTA 9.4.4; rxe skips check_rkey)")
                .step(write(Opcode.RC_RDMA_WRITE_ONLY, WRITE_AT, 0, 0).key(KeyChoice.BOGUS), ack(0)).state(QpState.RTS).build(),
            of("ACC-18", G, "zero-length READ with an unknown key gets an empty response", IBTA)
                .step(read(READ_AT, 0).key(KeyChoice.BOGUS), Expect.read(0, 0, 0, CaseTable.MTU)).build(),
            of("ACC-19", G, "WRITE inside a bound memory window", IBTA)
                .step(write8(WINDOW_AT, KeyChoice.WINDOW), ack(0)).memory(WINDOW_AT, 8, 0x5A).build(),
            denied("ACC-20", "WRITE past a memory window's end (inside its region)",
                write8(WINDOW_AT + WINDOW_BYTES - 4, KeyChoice.WINDOW)).memory(WINDOW_AT + WINDOW_BYTES - 4, 4, 0).build(),
            denied("ACC-21", "FETCH_ADD through a window bound without REMOTE_ATOMIC",
                fetchAdd(WINDOW_AT, 1).key(KeyChoice.WINDOW)).build(),
            of("ACC-22", G, "SEND with invalidate of an unknown key", RXE)
                .note("IBTA class J: the SEND is acknowledged, the receive fails with a remote invalid request "
                    + "and the QP goes to error (rxe: RESPST_ERR_INVALIDATE_RKEY)")
                .step(send(Opcode.RC_SEND_ONLY_WITH_INVALIDATE, 8).invalidating(KeyChoice.BOGUS), ack(0))
                .completion(WcStatus.REM_INV_REQ_ERR, 0).state(QpState.ERR).build(),
            of("ACC-23", G, "SEND with invalidate of a type 1 window's key", RXE)
                .note("only type 2 windows may be invalidated remotely: as ACC-22")
                .step(send(Opcode.RC_SEND_ONLY_WITH_INVALIDATE, 8).invalidating(KeyChoice.WINDOW), ack(0))
                .completion(WcStatus.REM_INV_REQ_ERR, 0).state(QpState.ERR).build());
    }
}
