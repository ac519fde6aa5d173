package io.jrxe.tools.conformance;

import io.jrxe.verbs.QpState;
import io.jrxe.verbs.WcStatus;
import io.jrxe.wire.header.AethSyndrome;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.header.NakCode;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.header.RethFlyweight;
import io.jrxe.wire.header.AtomicEthFlyweight;
import io.jrxe.wire.opcode.Opcode;

import java.util.List;

import static io.jrxe.tools.conformance.ConformanceCase.of;
import static io.jrxe.tools.conformance.Expect.ack;
import static io.jrxe.tools.conformance.PacketRecipe.fetchAdd;
import static io.jrxe.tools.conformance.PacketRecipe.read;
import static io.jrxe.tools.conformance.PacketRecipe.responseToTarget;
import static io.jrxe.tools.conformance.PacketRecipe.send;
import static io.jrxe.tools.conformance.PacketRecipe.udSend;
import static io.jrxe.tools.conformance.Reference.IBTA;
import static io.jrxe.tools.conformance.Reference.RXE;
import static io.jrxe.tools.conformance.TargetLayout.*;

/**
 * Packets that must not be read at all, or not from whoever sent them: malformed and truncated headers, unknown
 * opcodes and transport versions, a bad ICRC, a P_Key or Q_Key that does not match, a source that is not the QP's
 * peer, and responses to requests the target never sent. All are dropped in silence (IBTA 9.6: packets that fail
 * the header checks are silently discarded) and change nothing.
 */
final class WireCases {
    private static final int BOGUS_QPN = 0xFFFFF0;

    private WireCases() {
    }

    private static PacketRecipe write8() {
        return PsnCases.write8(0);
    }

    private static ConformanceCase.Builder dropped(String id, String group, String name, PacketRecipe packet, String counter) {
        return of(id, group, name, IBTA).silent(packet).counter(counter, 1);
    }

    static List<ConformanceCase> headers() {
        String g = "headers";
        return List.of(
            dropped("HDR-01", g, "8 bytes: too short for a BTH", write8().truncateTo(8), "jrxe_drop_malformed")
                .note("too short for a BTH and an ICRC: dropped before any other check")
                .memory(WRITE_AT, 8, 0).build(),
            dropped("HDR-02", g, "WRITE ONLY cut inside its RETH",
                write8().truncateTo(BthFlyweight.LENGTH + RethFlyweight.LENGTH / 2 + IcrcCalculator.LENGTH), "jrxe_drop_malformed")
                .state(QpState.RTS).build(),
            dropped("HDR-03", g, "FETCH_ADD cut inside its AtomicETH",
                fetchAdd(ATOMIC_AT, 1).truncateTo(BthFlyweight.LENGTH + AtomicEthFlyweight.LENGTH - 8 + IcrcCalculator.LENGTH),
                "jrxe_drop_malformed").build(),
            dropped("HDR-04", g, "READ request cut inside its RETH",
                read(READ_AT, 8).truncateTo(BthFlyweight.LENGTH + 4 + IcrcCalculator.LENGTH), "jrxe_drop_malformed").build(),
            dropped("HDR-05", g, "unknown opcode 0x15 (reserved RC)", PacketRecipe.unknownOpcode(0x15, 8),
                "jrxe_drop_unknown_opcode").build(),
            dropped("HDR-06", g, "unknown opcode 0x1f (reserved RC)", PacketRecipe.unknownOpcode(0x1F, 0),
                "jrxe_drop_unknown_opcode").build(),
            dropped("HDR-07", g, "unknown opcode 0xe0 (manufacturer range)", PacketRecipe.unknownOpcode(0xE0, 16),
                "jrxe_drop_unknown_opcode").build(),
            dropped("HDR-08", g, "transport version 1", write8().transportVersion(1), "jrxe_drop_malformed")
                .memory(WRITE_AT, 8, 0).build(),
            dropped("HDR-09", g, "transport version 15 on a SEND", send(Opcode.RC_SEND_ONLY, 8).transportVersion(15),
                "jrxe_drop_malformed").noCompletion().build(),
            dropped("HDR-10", g, "P_Key 0x1234 (another partition)", write8().pkey(0x1234), "jrxe_drop_bad_pkey")
                .memory(WRITE_AT, 8, 0).build(),
            of("HDR-11", g, "P_Key 0x7fff (limited member of the default partition) is accepted", IBTA)
                .note("a full member (the target) matches a limited one")
                .step(write8().pkey(0x7FFF), ack(0)).build(),
            dropped("HDR-12", g, "a QPN that does not exist", write8().destQpn(BOGUS_QPN), "jrxe_drop_unknown_qpn").build(),
            dropped("HDR-13", g, "bad ICRC on a WRITE", write8().badIcrc(), "jrxe_drop_bad_icrc").memory(WRITE_AT, 8, 0)
                .state(QpState.RTS).build(),
            dropped("HDR-14", g, "bad ICRC on a SEND", send(Opcode.RC_SEND_ONLY, 8).badIcrc(), "jrxe_drop_bad_icrc")
                .noCompletion().build(),
            of("HDR-15", g, "the PSN of a packet with a bad ICRC stays expected", IBTA)
                .silent(write8().badIcrc()).step(write8(), ack(0)).build());
    }

    static List<ConformanceCase> datagrams() {
        String g = "ud";
        return List.of(
            of("UD-01", g, "UD SEND with the right Q_Key is received", IBTA)
                .silent(udSend(16, UD_QKEY)).udCompletion(WcStatus.SUCCESS, 40 + 16).build(),
            dropped("UD-02", g, "UD SEND with a wrong Q_Key is dropped", udSend(16, UD_QKEY ^ 1), "jrxe_drop_bad_qkey")
                .noUdCompletion().build(),
            dropped("UD-03", g, "UD SEND with a P_Key of another partition is dropped", udSend(16, UD_QKEY).pkey(0x1234),
                "jrxe_drop_bad_pkey").noUdCompletion().build());
    }

    static List<ConformanceCase> sources() {
        String g = "source";
        return List.of(
            dropped("SRC-01", g, "WRITE from a third address", write8().from(PacketRecipe.Source.THIRD), "jrxe_drop_wrong_address")
                .note("rxe's check_addr: only the connected peer speaks for an RC QP").memory(WRITE_AT, 8, 0).build(),
            of("SRC-02", g, "the PSN a forged WRITE used stays the peer's", RXE)
                .silent(write8().from(PacketRecipe.Source.THIRD)).step(write8(), ack(0)).memory(WRITE_AT, 8, 0x5A).build(),
            dropped("SRC-03", g, "READ from a third address", read(READ_AT, 8).from(PacketRecipe.Source.THIRD),
                "jrxe_drop_wrong_address").build(),
            dropped("SRC-04", g, "SEND from a third address", send(Opcode.RC_SEND_ONLY, 8).from(PacketRecipe.Source.THIRD),
                "jrxe_drop_wrong_address").noCompletion().build());
    }

    static List<ConformanceCase> ghosts() {
        String g = "ghost";
        return List.of(
            dropped("GHO-01", g, "ACK for a PSN the target never sent", responseToTarget(Opcode.RC_ACKNOWLEDGE, 0),
                "jrxe_drop_ghost_ack").state(QpState.RTS).build(),
            dropped("GHO-02", g, "ACK far ahead of the target's PSN", responseToTarget(Opcode.RC_ACKNOWLEDGE, 1000),
                "jrxe_drop_ghost_ack").build(),
            dropped("GHO-03", g, "NAK for a PSN the target never sent",
                responseToTarget(Opcode.RC_ACKNOWLEDGE, 0).syndrome(AethSyndrome.nak(NakCode.REMOTE_ACCESS_ERROR)),
                "jrxe_drop_ghost_ack").state(QpState.RTS).build(),
            dropped("GHO-04", g, "READ response to no READ", responseToTarget(Opcode.RC_RDMA_READ_RESPONSE_ONLY, 0).payload(8),
                "jrxe_drop_ghost_ack").build(),
            dropped("GHO-05", g, "atomic ACK to no atomic", responseToTarget(Opcode.RC_ATOMIC_ACKNOWLEDGE, 0),
                "jrxe_drop_ghost_ack").build(),
            dropped("GHO-06", g, "ACK from a third address", responseToTarget(Opcode.RC_ACKNOWLEDGE, 0)
                .from(PacketRecipe.Source.THIRD), "jrxe_drop_wrong_address").build());
    }
}
