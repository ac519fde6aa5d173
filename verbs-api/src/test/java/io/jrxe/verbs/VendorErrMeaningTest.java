package io.jrxe.verbs;

import io.jrxe.verbs.spi.CompletionWriter;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class VendorErrMeaningTest {
    private static WorkCompletion wc(WcStatus status, int vendorErr) {
        return CompletionWriter.write(new WorkCompletion(), 7, status, WcOpcode.RDMA_WRITE, vendorErr, 0, 0, 0x11, 0, 0, 0);
    }

    @Test
    void aRemoteErrorNamesTheNakCode() {
        assertThat(wc(WcStatus.REM_ACCESS_ERR, 2).vendorErrMeaning()).isEqualTo("NAK remote access error");
        assertThat(wc(WcStatus.REM_OP_ERR, 31).vendorErrMeaning()).isEqualTo("NAK code 31 (reserved)");
    }

    @Test
    void aLocalErrorNamesTheKeyRule() {
        assertThat(wc(WcStatus.LOC_PROT_ERR, AccessError.WRONG_PD.code()).vendorErrMeaning())
                .isEqualTo(AccessError.WRONG_PD.description());
    }

    @Test
    void theCompletionPrintsVendorErrWithItsMeaningAndNothingForZero() {
        assertThat(wc(WcStatus.REM_ACCESS_ERR, 2).toString()).endsWith(" vendor_err=2 (NAK remote access error)");
        assertThat(wc(WcStatus.SUCCESS, 0).toString()).doesNotContain("vendor_err");
        assertThat(wc(WcStatus.SUCCESS, 0).vendorErrMeaning()).isEmpty();
    }
}
