package io.jrxe.verbs;

/**
 * One work completion, as poll_cq returns it (ibv_wc). Reusable: poll fills the instances the caller passes, so
 * polling allocates nothing, and the next poll fills them again; a completion to keep is copied
 * ({@link #WorkCompletion(WorkCompletion)}, {@link #copyFrom}). Only a provider fills one.
 */
public final class WorkCompletion {
    /** wc_flags bits (ibv_wc_flags). */
    public static final int WITH_GRH = 1;
    /** wc_flags bit: the completion carries immediate data. */
    public static final int WITH_IMM = 1 << 1;
    /** wc_flags bit: the message invalidated an R_Key, which {@link #invalidatedRkey()} gives. */
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

    /** An empty completion, for {@link Cq#poll} to fill. */
    public WorkCompletion() {
    }

    /**
     * A copy of {@code other}, for keeping a completion after the object poll filled is reused: poll fills the
     * same objects again on the next call.
     */
    public WorkCompletion(WorkCompletion other) {
        copyFrom(other);
    }

    /** Makes this completion a copy of {@code other} (every field), as the copy constructor does without allocating; returns this. */
    public WorkCompletion copyFrom(WorkCompletion other) {
        fill(other.wrId, other.status, other.opcode, other.vendorErr, other.byteLen, other.immData, other.qpNum,
                other.srcQp, other.wcFlags, other.pkeyIndex);
        return this;
    }

    /** The completed work request's wrId. */
    public long wrId() {
        return wrId;
    }

    /** SUCCESS, or why the work request failed. */
    public WcStatus status() {
        return status;
    }

    /** What completed. */
    public WcOpcode opcode() {
        return opcode;
    }

    /**
     * The provider's vendor_err: when the status is an error, a number whose meaning is the device's own (on a
     * jrxe NIC, which rule fired: its emulated provider's extension says it in words); 0 otherwise.
     */
    public int vendorErr() {
        return vendorErr;
    }

    /** Bytes received (receives) or read (READ, atomics). */
    public int byteLen() {
        return byteLen;
    }

    /**
     * The immediate data (with WITH_IMM), as the number the sender put in {@link SendWr#immData} (its four bytes
     * travelled big-endian: libibverbs' imm_data holds the same bytes as a __be32), or the invalidated R_Key (with
     * WITH_INV).
     */
    public int immData() {
        return immData;
    }

    /** The R_Key the message invalidated (with WITH_INV). */
    public int invalidatedRkey() {
        return immData;
    }

    /** The local QP the work request was posted to. */
    public int qpNum() {
        return qpNum;
    }

    /** UD receives: the sending QP number. */
    public int srcQp() {
        return srcQp;
    }

    /** wc_flags: {@link #WITH_GRH}, {@link #WITH_IMM}, {@link #WITH_INV}. */
    public int wcFlags() {
        return wcFlags;
    }

    /** UD receives: the P_Key index. */
    public int pkeyIndex() {
        return pkeyIndex;
    }

    /** True with WITH_IMM. */
    public boolean hasImmediate() {
        return (wcFlags & WITH_IMM) != 0;
    }

    /**
     * True when the completion holds immediate data: a receive completion with WITH_IMM. A sender's completion of a
     * SEND_WITH_IMM or RDMA_WRITE_WITH_IMM has WITH_IMM too (rxe sets it), but its imm_data field holds nothing:
     * ibv_poll_cq(3) makes imm_data meaningful on the receiving side only.
     */
    public boolean carriesImmediate() {
        return hasImmediate() && (opcode == WcOpcode.RECV || opcode == WcOpcode.RECV_RDMA_WITH_IMM);
    }

    /** True with WITH_INV. */
    public boolean hasInvalidate() {
        return (wcFlags & WITH_INV) != 0;
    }

    /** Fills every field. Providers reach it through {@link io.jrxe.verbs.spi.WorkCompletionFiller}; programs cannot. */
    void fill(long wrId, WcStatus status, WcOpcode opcode, int vendorErr, int byteLen, int immData, int qpNum, int srcQp,
              int wcFlags, int pkeyIndex) {
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
    }

    @Override
    public String toString() {
        return String.format("wr_id=%d status=%s opcode=%s byte_len=%d qp=0x%06x%s%s%s", wrId, status, opcode, byteLen,
                qpNum, carriesImmediate() ? String.format(" imm=0x%08x", immData) : "",
                hasInvalidate() ? String.format(" invalidated_rkey=0x%08x", immData) : "",
                vendorErr != 0 ? " vendor_err=" + vendorErr : "");
    }
}
