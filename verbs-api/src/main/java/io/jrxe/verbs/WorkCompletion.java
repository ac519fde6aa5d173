package io.jrxe.verbs;

/**
 * One work completion, as poll_cq returns it (ibv_wc). Mutable and reusable: poll fills the
 * instances the caller passes, so polling allocates nothing.
 */
public final class WorkCompletion {
    /** wc_flags bits (ibv_wc_flags). */
    public static final int WITH_GRH = 1;
    public static final int WITH_IMM = 1 << 1;
    public static final int WITH_INV = 1 << 3;

    long wrId;
    WcStatus status = WcStatus.SUCCESS;
    WcOpcode opcode = WcOpcode.SEND;
    int vendorErr;
    int byteLen;
    int immData;
    int qpNum;
    int srcQp;
    int wcFlags;
    int pkeyIndex;

    public long wrId() {
        return wrId;
    }

    public WcStatus status() {
        return status;
    }

    public WcOpcode opcode() {
        return opcode;
    }

    /** Which jrxe rule fired when the status is an error (see the README's vendor_err table). */
    public int vendorErr() {
        return vendorErr;
    }

    public int byteLen() {
        return byteLen;
    }

    /** The immediate data (with WITH_IMM), or the invalidated R_Key (with WITH_INV). */
    public int immData() {
        return immData;
    }

    public int invalidatedRkey() {
        return immData;
    }

    public int qpNum() {
        return qpNum;
    }

    public int srcQp() {
        return srcQp;
    }

    public int wcFlags() {
        return wcFlags;
    }

    public int pkeyIndex() {
        return pkeyIndex;
    }

    public boolean hasImmediate() {
        return (wcFlags & WITH_IMM) != 0;
    }

    public boolean hasInvalidate() {
        return (wcFlags & WITH_INV) != 0;
    }

    public WorkCompletion set(long wrId, WcStatus status, WcOpcode opcode, int vendorErr, int byteLen, int immData,
                              int qpNum, int srcQp, int wcFlags, int pkeyIndex) {
        this.wrId = wrId;
        this.status = status;
        this.opcode = opcode;
        this.vendorErr = vendorErr;
        this.byteLen = byteLen;
        this.immData = immData;
        this.qpNum = qpNum;
        this.srcQp = srcQp;
        this.wcFlags = wcFlags;
        this.pkeyIndex = pkeyIndex;
        return this;
    }

    @Override
    public String toString() {
        return String.format("wr_id=%d status=%s opcode=%s byte_len=%d qp=0x%06x%s%s%s", wrId, status, opcode, byteLen,
                qpNum, hasImmediate() ? String.format(" imm=0x%08x", immData) : "",
                hasInvalidate() ? String.format(" invalidated_rkey=0x%08x", immData) : "",
                vendorErr != 0 ? " vendor_err=" + vendorErr : "");
    }
}
