package io.jrxe.wire.cm;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/** REJ reasons, APR and SIDR statuses by code, as IBTA numbers them (and the Linux CM with it). */
class RejectReasonTest {
    @Test
    void theCodesThatMatterToRdmaCm() {
        assertThat(RejectReason.of(1)).isEqualTo(RejectReason.NO_QP);
        assertThat(RejectReason.of(2)).isEqualTo(RejectReason.NO_EEC);
        assertThat(RejectReason.of(3)).isEqualTo(RejectReason.NO_RESOURCES);
        assertThat(RejectReason.of(4)).isEqualTo(RejectReason.TIMEOUT);
        assertThat(RejectReason.of(7)).isEqualTo(RejectReason.INVALID_COMM_INSTANCE);
        assertThat(RejectReason.of(8)).isEqualTo(RejectReason.INVALID_SERVICE_ID);
        assertThat(RejectReason.of(10)).isEqualTo(RejectReason.STALE_CONNECTION);
        assertThat(RejectReason.of(26)).isEqualTo(RejectReason.INVALID_MTU);
        assertThat(RejectReason.of(27)).isEqualTo(RejectReason.INSUFFICIENT_RESPONDER_RESOURCES);
        assertThat(RejectReason.of(28)).isEqualTo(RejectReason.CONSUMER_REJECT);
        assertThat(RejectReason.of(30)).isEqualTo(RejectReason.DUPLICATE_LOCAL_COMM_ID);
        assertThat(RejectReason.of(33)).isEqualTo(RejectReason.INVALID_ALT_FLOW_LABEL);
        assertThat(RejectReason.of(35)).isEqualTo(RejectReason.VENDOR_OPTION_NOT_SUPPORTED);
        assertThat(RejectReason.describe(8)).isEqualTo("invalid service ID");
        assertThat(RejectReason.describe(28)).isEqualTo("consumer reject");
    }

    @Test
    void codesOneToThirtyThreeAreContiguousAndTheRestUnassigned() {
        assertThat(Arrays.stream(RejectReason.values()).mapToInt(RejectReason::code).toArray())
                .containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
                        25, 26, 27, 28, 29, 30, 31, 32, 33, 35);
        for (int code : new int[] {0, 34, 36, 0xFFFF}) {
            assertThat(RejectReason.of(code)).isNull();
            assertThat(RejectReason.describe(code)).isEqualTo("reason " + code + " (unassigned)");
        }
    }

    @Test
    void apStatusAndSidrStatusByCode() {
        assertThat(AlternatePathStatus.of(0)).isEqualTo(AlternatePathStatus.LOADED);
        assertThat(AlternatePathStatus.of(6)).isEqualTo(AlternatePathStatus.INVALID_QPN_EECN);
        assertThat(AlternatePathStatus.of(13)).isEqualTo(AlternatePathStatus.INVALID_SL);
        assertThat(AlternatePathStatus.of(14)).isNull();
        assertThat(AlternatePathStatus.describe(14)).isEqualTo("status 14 (unassigned)");
        assertThat(SidrStatus.of(0)).isEqualTo(SidrStatus.VALID);
        assertThat(SidrStatus.of(3)).isEqualTo(SidrStatus.NO_QP);
        assertThat(SidrStatus.of(5)).isEqualTo(SidrStatus.UNSUPPORTED_VERSION);
        assertThat(SidrStatus.of(6)).isNull();
        for (AlternatePathStatus s : AlternatePathStatus.values()) {
            assertThat(s.code()).isEqualTo(s.ordinal());
        }
        for (SidrStatus s : SidrStatus.values()) {
            assertThat(s.code()).isEqualTo(s.ordinal());
        }
    }
}
