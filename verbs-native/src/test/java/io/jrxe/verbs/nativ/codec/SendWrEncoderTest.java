package io.jrxe.verbs.nativ.codec;

import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.nativ.abi.IbvSendWr;
import io.jrxe.verbs.nativ.abi.IbvSge;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.HexFormat;
import java.util.Map;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;

/** jrxe SendWr -> ibv_send_wr bytes -> read back, for every opcode. */
class SendWrEncoderTest {
    /** enum ibv_wr_opcode in rdma-core 44's verbs.h. */
    static final Map<WrOpcode, Integer> IBV_WR = Map.ofEntries(
            Map.entry(WrOpcode.RDMA_WRITE, 0), Map.entry(WrOpcode.RDMA_WRITE_WITH_IMM, 1), Map.entry(WrOpcode.SEND, 2),
            Map.entry(WrOpcode.SEND_WITH_IMM, 3), Map.entry(WrOpcode.RDMA_READ, 4), Map.entry(WrOpcode.ATOMIC_CMP_AND_SWP, 5),
            Map.entry(WrOpcode.ATOMIC_FETCH_AND_ADD, 6), Map.entry(WrOpcode.LOCAL_INV, 7), Map.entry(WrOpcode.BIND_MW, 8),
            Map.entry(WrOpcode.SEND_WITH_INV, 9), Map.entry(WrOpcode.ATOMIC_WRITE, 15));

    private final Arena arena = Arena.ofConfined();
    private final MemorySegment wr = arena.allocate(IbvSendWr.LAYOUT);
    private final MemorySegment sges = arena.allocate(IbvSge.LAYOUT, 4);
    private final MemorySegment inline = arena.allocate(64);
    private final MemorySegment ah = arena.allocate(8);
    private final MemorySegment mw = arena.allocate(8);
    private final MemorySegment mr = arena.allocate(8);
    private final Handles handles = new Handles() {
        @Override
        public MemorySegment ah(int handle) {
            return handle == 7 ? ah : MemorySegment.NULL;
        }

        @Override
        public MemorySegment mw(int rkey) {
            return rkey == 0x1234_5601 ? mw : MemorySegment.NULL;
        }

        @Override
        public MemorySegment mr(int lkey) {
            return lkey == 0x0000_2201 ? mr : MemorySegment.NULL;
        }
    };

    @AfterEach
    void close() {
        arena.close();
    }

    private static SendWr filled(WrOpcode op) {
        SendWr w = new SendWr(4);
        w.wrId = 0x0102_0304_0506_0708L;
        w.opcode = op;
        w.flags = SendWr.SIGNALED | SendWr.SOLICITED | SendWr.FENCE;
        w.sgl.add(0x7000_0000_1000L, 8, 0x0000_2201);
        w.sgl.add(0x7000_0000_3000L, 4096, 0x0000_2201);
        w.immData = 0x11223344;
        w.invalidateRkey = 0x0000_5501;
        w.remoteAddr = 0x7f00_dead_b000L;
        w.rkey = 0x0000_9901;
        w.compareAdd = 0x0a0b_0c0d_0e0f_1011L;
        w.swap = 0x2122_2324_2526_2728L;
        w.ahHandle = 7;
        w.remoteQpn = 0x000123;
        w.remoteQkey = 0x1111_1111;
        w.mwRkey = 0x1234_5601;
        w.newRkey = 0x1234_5602;
        w.mrLkey = 0x0000_2201;
        w.bindAddr = 0x7000_0000_1000L;
        w.bindLength = 4096;
        w.bindAccess = 0x6;
        return w;
    }

    @ParameterizedTest
    @EnumSource(value = WrOpcode.class, names = {"FLUSH", "REG_MR"}, mode = EnumSource.Mode.EXCLUDE)
    void everyOpcodeWritesItsIbvValueTheCommonFieldsAndTheSgl(WrOpcode op) {
        assertThat(SendWrEncoder.encode(filled(op), wr, sges, inline, false, handles)).isNull();
        assertThat(wr.get(JAVA_INT, IbvSendWr.OPCODE)).isEqualTo(IBV_WR.get(op));
        assertThat(wr.get(JAVA_LONG, IbvSendWr.WR_ID)).isEqualTo(0x0102_0304_0506_0708L);
        assertThat(wr.get(JAVA_INT, IbvSendWr.SEND_FLAGS)).isEqualTo(1 | 2 | 4); // IBV_SEND_FENCE | SIGNALED | SOLICITED
        assertThat(wr.get(JAVA_INT, IbvSendWr.NUM_SGE)).isEqualTo(2);
        assertThat(wr.get(ADDRESS, IbvSendWr.SG_LIST).address()).isEqualTo(sges.address());
        assertThat(sges.get(JAVA_LONG, IbvSge.SIZE + IbvSge.ADDR)).isEqualTo(0x7000_0000_3000L);
        assertThat(sges.get(JAVA_INT, IbvSge.SIZE + IbvSge.LENGTH)).isEqualTo(4096);
        assertThat(sges.get(JAVA_INT, IbvSge.SIZE + IbvSge.LKEY)).isEqualTo(0x2201);
    }

    @ParameterizedTest
    @EnumSource(value = WrOpcode.class, names = {"RDMA_WRITE_WITH_IMM", "SEND_WITH_IMM"})
    void immediateDataIsInNetworkOrder(WrOpcode op) {
        SendWrEncoder.encode(filled(op), wr, sges, inline, false, handles);
        byte[] imm = wr.asSlice(IbvSendWr.IMM_DATA, 4).toArray(JAVA_BYTE);
        assertThat(HexFormat.of().formatHex(imm)).isEqualTo("11223344");
    }

    @ParameterizedTest
    @EnumSource(value = WrOpcode.class, names = {"SEND_WITH_INV", "LOCAL_INV"})
    void theKeyToInvalidateIsInHostOrder(WrOpcode op) {
        SendWrEncoder.encode(filled(op), wr, sges, inline, false, handles);
        assertThat(wr.get(JAVA_INT, IbvSendWr.INVALIDATE_RKEY)).isEqualTo(0x5501);
    }

    @ParameterizedTest
    @EnumSource(value = WrOpcode.class, names = {"RDMA_WRITE", "RDMA_WRITE_WITH_IMM", "RDMA_READ", "ATOMIC_WRITE"})
    void rdmaOperationsFillWrRdma(WrOpcode op) {
        SendWrEncoder.encode(filled(op), wr, sges, inline, false, handles);
        assertThat(wr.get(JAVA_LONG, IbvSendWr.WR_RDMA_REMOTE_ADDR)).isEqualTo(0x7f00_dead_b000L);
        assertThat(wr.get(JAVA_INT, IbvSendWr.WR_RDMA_RKEY)).isEqualTo(0x9901);
    }

    @ParameterizedTest
    @EnumSource(value = WrOpcode.class, names = {"ATOMIC_CMP_AND_SWP", "ATOMIC_FETCH_AND_ADD"})
    void atomicsFillWrAtomic(WrOpcode op) {
        SendWrEncoder.encode(filled(op), wr, sges, inline, false, handles);
        assertThat(wr.get(JAVA_LONG, IbvSendWr.WR_ATOMIC_REMOTE_ADDR)).isEqualTo(0x7f00_dead_b000L);
        assertThat(wr.get(JAVA_LONG, IbvSendWr.WR_ATOMIC_COMPARE_ADD)).isEqualTo(0x0a0b_0c0d_0e0f_1011L);
        assertThat(wr.get(JAVA_LONG, IbvSendWr.WR_ATOMIC_SWAP)).isEqualTo(0x2122_2324_2526_2728L);
        assertThat(wr.get(JAVA_INT, IbvSendWr.WR_ATOMIC_RKEY)).isEqualTo(0x9901);
    }

    @ParameterizedTest
    @EnumSource(value = WrOpcode.class, names = {"SEND", "SEND_WITH_IMM"})
    void udSendsNameTheirAhQpnAndQkey(WrOpcode op) {
        assertThat(SendWrEncoder.encode(filled(op), wr, sges, inline, true, handles)).isNull();
        assertThat(wr.get(ADDRESS, IbvSendWr.WR_UD_AH).address()).isEqualTo(ah.address());
        assertThat(wr.get(JAVA_INT, IbvSendWr.WR_UD_REMOTE_QPN)).isEqualTo(0x123);
        assertThat(wr.get(JAVA_INT, IbvSendWr.WR_UD_REMOTE_QKEY)).isEqualTo(0x1111_1111);
    }

    @Test
    void aUdSendToAnUnknownAhIsRefused() {
        SendWr w = filled(WrOpcode.SEND);
        w.ahHandle = 8;
        assertThat(SendWrEncoder.encode(w, wr, sges, inline, true, handles)).contains("AH handle 8");
    }

    @Test
    void bindMwNamesTheWindowTheMrAndTheRange() {
        assertThat(SendWrEncoder.encode(filled(WrOpcode.BIND_MW), wr, sges, inline, false, handles)).isNull();
        assertThat(wr.get(ADDRESS, IbvSendWr.BIND_MW_MW).address()).isEqualTo(mw.address());
        assertThat(wr.get(JAVA_INT, IbvSendWr.BIND_MW_RKEY)).isEqualTo(0x1234_5602);
        assertThat(wr.get(ADDRESS, IbvSendWr.BIND_MW_BIND_INFO_MR).address()).isEqualTo(mr.address());
        assertThat(wr.get(JAVA_LONG, IbvSendWr.BIND_MW_BIND_INFO_ADDR)).isEqualTo(0x7000_0000_1000L);
        assertThat(wr.get(JAVA_LONG, IbvSendWr.BIND_MW_BIND_INFO_LENGTH)).isEqualTo(4096);
        assertThat(wr.get(JAVA_INT, IbvSendWr.BIND_MW_BIND_INFO_MW_ACCESS_FLAGS)).isEqualTo(6);
    }

    @Test
    void bindingAnUnknownWindowIsRefused() {
        SendWr w = filled(WrOpcode.BIND_MW);
        w.mwRkey = 0x99;
        assertThat(SendWrEncoder.encode(w, wr, sges, inline, false, handles)).contains("R_Key 0x00000099");
    }

    @Test
    void jrxesOwnOpcodeIsRefusedByName() {
        assertThat(SendWrEncoder.encode(filled(WrOpcode.REG_MR), wr, sges, inline, false, handles))
                .isEqualTo("REG_MR has no ibv_wr_opcode in libibverbs' ibv_send_wr (it is jrxe's own)");
    }

    @Test
    void aFlushIsSentToTheExtendedApi() {
        assertThat(SendWrEncoder.encode(filled(WrOpcode.FLUSH), wr, sges, inline, false, handles))
                .isEqualTo(SendWrEncoder.NO_FLUSH).contains("ibv_wr_flush", "ibv_create_qp_ex");
    }

    @Test
    void inlineDataIsCopiedAndNamedByOneSge() {
        SendWr w = filled(WrOpcode.SEND);
        w.flags = SendWr.INLINE | SendWr.SIGNALED;
        w.inlineData = new byte[] {1, 2, 3, 4, 5};
        w.inlineLength = 5;
        assertThat(SendWrEncoder.encode(w, wr, sges, inline, false, handles)).isNull();
        assertThat(wr.get(JAVA_INT, IbvSendWr.SEND_FLAGS)).isEqualTo(8 | 2);
        assertThat(wr.get(JAVA_INT, IbvSendWr.NUM_SGE)).isEqualTo(1);
        assertThat(sges.get(JAVA_LONG, IbvSge.ADDR)).isEqualTo(inline.address());
        assertThat(sges.get(JAVA_INT, IbvSge.LENGTH)).isEqualTo(5);
        assertThat(inline.asSlice(0, 5).toArray(JAVA_BYTE)).containsExactly(1, 2, 3, 4, 5);
    }

    @Test
    void tooMuchInlineDataOrTooManySgesIsRefused() {
        SendWr w = filled(WrOpcode.SEND);
        w.flags = SendWr.INLINE;
        w.inlineData = new byte[65];
        w.inlineLength = 65;
        assertThat(SendWrEncoder.encode(w, wr, sges, inline, false, handles)).contains("max_inline_data 64");
        SendWr many = new SendWr(5);
        for (int i = 0; i < 5; i++) {
            many.sgl.add(0x1000L * i, 1, 1);
        }
        assertThat(SendWrEncoder.encode(many, wr, sges, inline, false, handles)).contains("max_send_sge 4");
    }

    @Test
    void aReusedSlotCarriesNothingFromItsLastWorkRequest() {
        SendWrEncoder.encode(filled(WrOpcode.ATOMIC_CMP_AND_SWP), wr, sges, inline, false, handles);
        SendWr plain = new SendWr(1);
        plain.opcode = WrOpcode.SEND;
        SendWrEncoder.encode(plain, wr, sges, inline, false, handles);
        assertThat(wr.get(JAVA_LONG, IbvSendWr.WR_ATOMIC_SWAP)).isZero();
        assertThat(wr.get(JAVA_INT, IbvSendWr.NUM_SGE)).isZero();
        assertThat(wr.get(ADDRESS, IbvSendWr.SG_LIST)).isEqualTo(MemorySegment.NULL);
    }
}
