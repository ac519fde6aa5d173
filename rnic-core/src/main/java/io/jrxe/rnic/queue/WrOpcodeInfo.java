package io.jrxe.rnic.queue;

import io.jrxe.verbs.QpType;
import io.jrxe.verbs.WrOpcode;

/**
 * What each work-request opcode is, as one table (rxe's {@code rxe_wr_opcode_info}): on which QP
 * types it may be posted, whether it runs on the NIC without packets, whether it waits for a
 * response, how many request packets and PSNs it takes, what its completion reports. The poster,
 * the requester and the completer read this table instead of testing opcodes by hand.
 */
public final class WrOpcodeInfo {
    private static final int RC = 1 << QpType.RC.ordinal();
    private static final int UC = 1 << QpType.UC.ordinal();
    private static final int UD = 1 << QpType.UD.ordinal();
    private static final WrOpcodeInfo[] TABLE = new WrOpcodeInfo[WrOpcode.values().length];

    /** What the completion's byte_len is. */
    public enum CompletionLength {
        /** the message's length (SEND, WRITE, READ, FLUSH: the range it covered) */
        MESSAGE,
        /** 8 (atomics, ATOMIC WRITE) */
        EIGHT,
        /** 0 (local operations) */
        NONE
    }

    static {
        //    opcode                            QP types       local  rd/atom payload onePkt 8-byte inline send   imm    length
        put(WrOpcode.RDMA_WRITE,                RC | UC,       false, false, true,   false, false, true,  false, false, CompletionLength.MESSAGE);
        put(WrOpcode.RDMA_WRITE_WITH_IMM,       RC | UC,       false, false, true,   false, false, true,  false, true,  CompletionLength.MESSAGE);
        put(WrOpcode.SEND,                      RC | UC | UD,  false, false, true,   false, false, true,  true,  false, CompletionLength.MESSAGE);
        put(WrOpcode.SEND_WITH_IMM,             RC | UC | UD,  false, false, true,   false, false, true,  true,  true,  CompletionLength.MESSAGE);
        put(WrOpcode.SEND_WITH_INV,             RC,            false, false, true,   false, false, true,  true,  false, CompletionLength.MESSAGE);
        put(WrOpcode.RDMA_READ,                 RC,            false, true,  false,  true,  false, false, false, false, CompletionLength.MESSAGE);
        put(WrOpcode.ATOMIC_CMP_AND_SWP,        RC,            false, true,  false,  true,  true,  false, false, false, CompletionLength.EIGHT);
        put(WrOpcode.ATOMIC_FETCH_AND_ADD,      RC,            false, true,  false,  true,  true,  false, false, false, CompletionLength.EIGHT);
        put(WrOpcode.FLUSH,                     RC,            false, false, false,  true,  false, true,  false, false, CompletionLength.MESSAGE);
        put(WrOpcode.ATOMIC_WRITE,              RC,            false, false, true,   true,  true,  true,  false, false, CompletionLength.EIGHT);
        put(WrOpcode.LOCAL_INV,                 RC | UC,       true,  false, false,  false, false, true,  false, false, CompletionLength.NONE);
        put(WrOpcode.BIND_MW,                   RC | UC,       true,  false, false,  false, false, true,  false, false, CompletionLength.NONE);
        put(WrOpcode.REG_MR,                    RC | UC,       true,  false, false,  false, false, true,  false, false, CompletionLength.NONE);
        for (WrOpcode op : WrOpcode.values()) {
            if (TABLE[op.ordinal()] == null) {
                throw new ExceptionInInitializerError("no table entry for " + op);
            }
        }
    }

    private final WrOpcode opcode;
    private final int qpTypes;
    private final boolean local;
    private final boolean readOrAtomic;
    private final boolean carriesPayload;
    private final boolean onePacket;
    private final boolean eightByteBuffer;
    private final boolean inlineAllowed;
    private final boolean countsAsSend;
    private final boolean withImmediate;
    private final CompletionLength completionLength;

    private WrOpcodeInfo(WrOpcode opcode, int qpTypes, boolean local, boolean readOrAtomic, boolean carriesPayload,
                         boolean onePacket, boolean eightByteBuffer, boolean inlineAllowed, boolean countsAsSend,
                         boolean withImmediate, CompletionLength completionLength) {
        this.opcode = opcode;
        this.qpTypes = qpTypes;
        this.local = local;
        this.readOrAtomic = readOrAtomic;
        this.carriesPayload = carriesPayload;
        this.onePacket = onePacket;
        this.eightByteBuffer = eightByteBuffer;
        this.inlineAllowed = inlineAllowed;
        this.countsAsSend = countsAsSend;
        this.withImmediate = withImmediate;
        this.completionLength = completionLength;
    }

    private static void put(WrOpcode op, int qpTypes, boolean local, boolean readOrAtomic, boolean carriesPayload,
                            boolean onePacket, boolean eightByteBuffer, boolean inlineAllowed, boolean countsAsSend,
                            boolean withImmediate, CompletionLength completionLength) {
        TABLE[op.ordinal()] = new WrOpcodeInfo(op, qpTypes, local, readOrAtomic, carriesPayload, onePacket, eightByteBuffer,
                inlineAllowed, countsAsSend, withImmediate, completionLength);
    }

    public static WrOpcodeInfo of(WrOpcode op) {
        return TABLE[op.ordinal()];
    }

    public WrOpcode opcode() {
        return opcode;
    }

    /** Whether it may be posted on a QP of this type. */
    public boolean allowedOn(QpType type) {
        return (qpTypes & (1 << type.ordinal())) != 0;
    }

    /** It runs on the NIC as the requester reaches it and sends nothing (LOCAL_INV, BIND_MW, REG_MR). */
    public boolean local() {
        return local;
    }

    /** It waits for a response that carries data (READ, atomics) and counts against max_rd_atomic. */
    public boolean readOrAtomic() {
        return readOrAtomic;
    }

    /** Its packets carry local bytes (gathered or inline). */
    public boolean carriesPayload() {
        return carriesPayload;
    }

    /** Its request is one packet whatever its length (READ, atomics, FLUSH, ATOMIC WRITE). */
    public boolean onePacket() {
        return onePacket;
    }

    /** Its local buffer is exactly 8 bytes (atomics, ATOMIC WRITE). */
    public boolean eightByteBuffer() {
        return eightByteBuffer;
    }

    public boolean inlineAllowed() {
        return inlineAllowed;
    }

    /** rxe counts it in rdma_sends as it completes. */
    public boolean countsAsSend() {
        return countsAsSend;
    }

    /** It carries immediate data (its successful completion says so). */
    public boolean withImmediate() {
        return withImmediate;
    }

    /** The request packets of a message of {@code length} bytes at this MTU. */
    public int requestPackets(long length, int mtu) {
        return onePacket ? 1 : (int) Math.max(1, (length + mtu - 1) / mtu);
    }

    /**
     * The PSNs the message takes: its request packets, and for a READ the packets of its response,
     * which carry the PSNs after the request's.
     */
    public int psns(long length, int mtu) {
        return opcode == WrOpcode.RDMA_READ ? (int) Math.max(1, (length + mtu - 1) / mtu) : requestPackets(length, mtu);
    }

    /** The byte_len of its completion, for a message of {@code length} bytes. */
    public long completionBytes(long length) {
        return switch (completionLength) {
            case MESSAGE -> length;
            case EIGHT -> 8;
            case NONE -> 0;
        };
    }

    @Override
    public String toString() {
        return opcode.name();
    }
}
