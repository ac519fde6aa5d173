package io.jrxe.tools.common;

import io.jrxe.verbs.Cq;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.emulated.EmulatedExtension;

/**
 * What libibverbs' ibv_wc_status_str says for a completion status, so that the tools' error messages read like
 * rdma-core's; and a completion's vendor_err, with its meaning where the device is a jrxe NIC.
 */
public final class WcStatusText {
    private WcStatusText() {
    }

    /** ibv_wc_status_str's words. */
    public static String of(WcStatus status) {
        return switch (status) {
            case SUCCESS -> "success";
            case LOC_LEN_ERR -> "local length error";
            case LOC_QP_OP_ERR -> "local QP operation error";
            case LOC_EEC_OP_ERR -> "local EE context operation error";
            case LOC_PROT_ERR -> "local protection error";
            case WR_FLUSH_ERR -> "Work Request Flushed Error";
            case MW_BIND_ERR -> "memory management operation error";
            case BAD_RESP_ERR -> "bad response error";
            case LOC_ACCESS_ERR -> "local access error";
            case REM_INV_REQ_ERR -> "remote invalid request error";
            case REM_ACCESS_ERR -> "remote access error";
            case REM_OP_ERR -> "remote operation error";
            case RETRY_EXC_ERR -> "transport retry counter exceeded";
            case RNR_RETRY_EXC_ERR -> "RNR retry counter exceeded";
            case LOC_RDD_VIOL_ERR -> "local RDD violation error";
            case REM_INV_RD_REQ_ERR -> "remote invalid RD request";
            case REM_ABORT_ERR -> "aborted error";
            case INV_EECN_ERR -> "invalid EE context number";
            case INV_EEC_STATE_ERR -> "invalid EE context state";
            case FATAL_ERR -> "fatal error";
            case RESP_TIMEOUT_ERR -> "response timeout error";
            case GENERAL_ERR -> "general error";
        };
    }

    /**
     * "vendor_err N" for a completion polled from {@code cq}, with what N means when the CQ is a jrxe NIC's
     * ("vendor_err 2: NAK remote access error"); a kernel device's vendor_err is its vendor's own, so it is
     * given as the number alone.
     */
    public static String vendorErr(Cq cq, WorkCompletion wc) {
        String meaning = EmulatedExtension.of(cq).map(jrxe -> jrxe.vendorErrMeaning(wc)).orElse("");
        return "vendor_err " + wc.vendorErr() + (meaning.isEmpty() ? "" : ": " + meaning);
    }
}
