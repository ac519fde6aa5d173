package io.jrxe.verbs;

import io.jrxe.verbs.spi.WorkCompletionFiller;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A program keeps a completion by copying it: the copy has every field, and the next fill (a provider's, through
 * WorkCompletionFiller) leaves it alone.
 */
class WorkCompletionCopyTest {
    @Test
    void aCopyHasEveryFieldAndOutlivesTheNextFill() {
        WorkCompletion polled = WorkCompletionFiller.fill(new WorkCompletion(), 7, WcStatus.REM_ACCESS_ERR,
                WcOpcode.RDMA_WRITE, 2, 64, 0x1234, 0x11, 0x22, WorkCompletion.WITH_IMM, 3);
        WorkCompletion kept = new WorkCompletion(polled);
        WorkCompletionFiller.fill(polled, 8, WcStatus.SUCCESS, WcOpcode.RECV, 0, 0, 0, 0x12, 0, 0, 0);

        assertThat(kept.wrId()).isEqualTo(7);
        assertThat(kept.status()).isEqualTo(WcStatus.REM_ACCESS_ERR);
        assertThat(kept.opcode()).isEqualTo(WcOpcode.RDMA_WRITE);
        assertThat(kept.vendorErr()).isEqualTo(2);
        assertThat(kept.byteLen()).isEqualTo(64);
        assertThat(kept.immData()).isEqualTo(0x1234);
        assertThat(kept.qpNum()).isEqualTo(0x11);
        assertThat(kept.srcQp()).isEqualTo(0x22);
        assertThat(kept.wcFlags()).isEqualTo(WorkCompletion.WITH_IMM);
        assertThat(kept.pkeyIndex()).isEqualTo(3);
        assertThat(new WorkCompletion().copyFrom(polled)).hasToString(polled.toString());
    }
}
