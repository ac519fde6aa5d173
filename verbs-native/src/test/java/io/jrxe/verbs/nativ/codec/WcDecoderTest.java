package io.jrxe.verbs.nativ.codec;

import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.nativ.abi.IbvWc;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** ibv_wc bytes -> jrxe WorkCompletion, for every status and opcode. */
class WcDecoderTest {
    /** enum ibv_wc_opcode in rdma-core 44's verbs.h (8 is IBV_WC_FLUSH in later versions). */
    static final Map<WcOpcode, Integer> IBV_WC = Map.ofEntries(
            Map.entry(WcOpcode.SEND, 0), Map.entry(WcOpcode.RDMA_WRITE, 1), Map.entry(WcOpcode.RDMA_READ, 2),
            Map.entry(WcOpcode.COMP_SWAP, 3), Map.entry(WcOpcode.FETCH_ADD, 4), Map.entry(WcOpcode.BIND_MW, 5),
            Map.entry(WcOpcode.LOCAL_INV, 6), Map.entry(WcOpcode.FLUSH, 8), Map.entry(WcOpcode.ATOMIC_WRITE, 9),
            Map.entry(WcOpcode.RECV, 128), Map.entry(WcOpcode.RECV_RDMA_WITH_IMM, 129));
    /** enum ibv_wc_status in rdma-core 44, in order. */
    static final String[] IBV_WC_STATUS = {"SUCCESS", "LOC_LEN_ERR", "LOC_QP_OP_ERR", "LOC_EEC_OP_ERR", "LOC_PROT_ERR",
        "WR_FLUSH_ERR", "MW_BIND_ERR", "BAD_RESP_ERR", "LOC_ACCESS_ERR", "REM_INV_REQ_ERR", "REM_ACCESS_ERR",
        "REM_OP_ERR", "RETRY_EXC_ERR", "RNR_RETRY_EXC_ERR", "LOC_RDD_VIOL_ERR", "REM_INV_RD_REQ_ERR", "REM_ABORT_ERR",
        "INV_EECN_ERR", "INV_EEC_STATE_ERR", "FATAL_ERR", "RESP_TIMEOUT_ERR", "GENERAL_ERR", "TM_ERR", "TM_RNDV_INCOMPLETE"};

    private final Arena arena = Arena.ofConfined();
    private final MemorySegment wc = arena.allocate(IbvWc.LAYOUT);
    private final WorkCompletion out = new WorkCompletion();

    @AfterEach
    void close() {
        arena.close();
    }

    private void write(int status, int opcode, int flags) {
        wc.set(JAVA_LONG, IbvWc.WR_ID, 0x0102_0304_0506_0708L);
        wc.set(JAVA_INT, IbvWc.STATUS, status);
        wc.set(JAVA_INT, IbvWc.OPCODE, opcode);
        wc.set(JAVA_INT, IbvWc.VENDOR_ERR, 0x42);
        wc.set(JAVA_INT, IbvWc.BYTE_LEN, 4096);
        wc.asSlice(IbvWc.IMM_DATA, 4).copyFrom(MemorySegment.ofArray(new byte[] {0x11, 0x22, 0x33, 0x44}));
        wc.set(JAVA_INT, IbvWc.QP_NUM, 0x000011);
        wc.set(JAVA_INT, IbvWc.SRC_QP, 0x000022);
        wc.set(JAVA_INT, IbvWc.WC_FLAGS, flags);
        wc.set(JAVA_SHORT, IbvWc.PKEY_INDEX, (short) 0xFFFE);
        wc.set(JAVA_BYTE, IbvWc.SL, (byte) 3);
    }

    @ParameterizedTest
    @EnumSource(WcOpcode.class)
    void everyLibibverbsOpcodeReadsAsJrxes(WcOpcode op) {
        if (op == WcOpcode.REG_MR) {
            write(0, 10, 0);
            assertThatThrownBy(() -> WcDecoder.decode(wc, out)).hasMessageContaining("ibv_wc_opcode 10");
            return;
        }
        write(0, IBV_WC.get(op), 0);
        WcDecoder.decode(wc, out);
        assertThat(out.opcode()).isEqualTo(op);
        assertThat(out.wrId()).isEqualTo(0x0102_0304_0506_0708L);
        assertThat(out.status()).isEqualTo(WcStatus.SUCCESS);
        assertThat(out.vendorErr()).isEqualTo(0x42);
        assertThat(out.byteLen()).isEqualTo(4096);
        assertThat(out.qpNum()).isEqualTo(0x11);
        assertThat(out.srcQp()).isEqualTo(0x22);
        assertThat(out.pkeyIndex()).isEqualTo(0xFFFE);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23})
    void everyLibibverbsStatusReadsAsJrxes(int status) {
        write(status, 128, 0);
        WcDecoder.decode(wc, out);
        // The tag-matching statuses (22, 23) have no jrxe name: they read as GENERAL_ERR.
        String expected = status <= 21 ? IBV_WC_STATUS[status] : "GENERAL_ERR";
        assertThat(out.status().name()).isEqualTo(expected);
        assertThat(out.status().verbsValue()).isEqualTo(Math.min(status, 21));
    }

    @Test
    void immediateDataIsReadInNetworkOrder() {
        write(0, 129, WorkCompletion.WITH_IMM);
        WcDecoder.decode(wc, out);
        assertThat(out.hasImmediate()).isTrue();
        assertThat(out.immData()).isEqualTo(0x11223344);
    }

    @Test
    void anInvalidatedKeyIsReadInHostOrder() {
        write(0, 128, WorkCompletion.WITH_INV);
        wc.set(JAVA_INT, IbvWc.INVALIDATED_RKEY, 0x0000_5501);
        WcDecoder.decode(wc, out);
        assertThat(out.hasInvalidate()).isTrue();
        assertThat(out.invalidatedRkey()).isEqualTo(0x5501);
    }

    @Test
    void aFailedCompletionWithAnOpcodeJrxeCannotNameReadsAsSend() {
        write(5, 7, 0); // IBV_WC_TSO on a flushed WR: libibverbs leaves error opcodes undefined
        WcDecoder.decode(wc, out);
        assertThat(out.status()).isEqualTo(WcStatus.WR_FLUSH_ERR);
        assertThat(out.opcode()).isEqualTo(WcOpcode.SEND);
    }

    @Test
    void udFlagsPassThrough() {
        write(0, 128, WorkCompletion.WITH_GRH | WorkCompletion.WITH_IMM);
        WcDecoder.decode(wc, out);
        assertThat(out.wcFlags()).isEqualTo(3);
    }
}
