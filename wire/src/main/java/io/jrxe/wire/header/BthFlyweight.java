package io.jrxe.wire.header;

/**
 * Base Transport Header, 12 bytes (IBTA 9.2):
 * <pre>
 *  byte 0      opcode
 *  byte 1      SE(7) M(6) PadCnt(5..4) TVer(3..0)
 *  bytes 2-3   P_Key
 *  byte 4      FECN(7) BECN(6) reserved(5..0)   (masked to all ones in the ICRC)
 *  bytes 5-7   destination QP
 *  byte 8      AckReq(7) reserved(6..0)
 *  bytes 9-11  PSN
 * </pre>
 */
public final class BthFlyweight extends Flyweight<BthFlyweight> {
    public static final int LENGTH = 12;
    public static final int OPCODE_OFFSET = 0;
    public static final int FLAGS_OFFSET = 1;
    public static final int PKEY_OFFSET = 2;
    public static final int ECN_OFFSET = 4;
    public static final int DEST_QPN_OFFSET = 5;
    public static final int ACK_REQ_OFFSET = 8;
    public static final int PSN_OFFSET = 9;

    public static final int DEFAULT_PKEY = 0xFFFF;

    @Override
    public int length() {
        return LENGTH;
    }

    public int opcode() {
        return u8(OPCODE_OFFSET);
    }

    public BthFlyweight opcode(int opcode) {
        u8(OPCODE_OFFSET, opcode);
        return this;
    }

    public boolean solicitedEvent() {
        return (u8(FLAGS_OFFSET) & 0x80) != 0;
    }

    public BthFlyweight solicitedEvent(boolean se) {
        u8(FLAGS_OFFSET, se ? u8(FLAGS_OFFSET) | 0x80 : u8(FLAGS_OFFSET) & ~0x80);
        return this;
    }

    public boolean migReq() {
        return (u8(FLAGS_OFFSET) & 0x40) != 0;
    }

    public BthFlyweight migReq(boolean m) {
        u8(FLAGS_OFFSET, m ? u8(FLAGS_OFFSET) | 0x40 : u8(FLAGS_OFFSET) & ~0x40);
        return this;
    }

    /** Number of pad bytes (0..3) after the payload that bring it to a multiple of 4. */
    public int padCount() {
        return (u8(FLAGS_OFFSET) >>> 4) & 0x3;
    }

    public BthFlyweight padCount(int pad) {
        u8(FLAGS_OFFSET, (u8(FLAGS_OFFSET) & ~0x30) | (pad & 0x3) << 4);
        return this;
    }

    public int transportVersion() {
        return u8(FLAGS_OFFSET) & 0xF;
    }

    public BthFlyweight transportVersion(int tver) {
        u8(FLAGS_OFFSET, (u8(FLAGS_OFFSET) & ~0xF) | (tver & 0xF));
        return this;
    }

    public int pkey() {
        return u16(PKEY_OFFSET);
    }

    public BthFlyweight pkey(int pkey) {
        u16(PKEY_OFFSET, pkey);
        return this;
    }

    public boolean fecn() {
        return (u8(ECN_OFFSET) & 0x80) != 0;
    }

    public BthFlyweight fecn(boolean fecn) {
        u8(ECN_OFFSET, fecn ? u8(ECN_OFFSET) | 0x80 : u8(ECN_OFFSET) & ~0x80);
        return this;
    }

    public boolean becn() {
        return (u8(ECN_OFFSET) & 0x40) != 0;
    }

    public BthFlyweight becn(boolean becn) {
        u8(ECN_OFFSET, becn ? u8(ECN_OFFSET) | 0x40 : u8(ECN_OFFSET) & ~0x40);
        return this;
    }

    /** The six reserved bits of byte 4 (rxe sends them as zero). */
    public int reserved6() {
        return u8(ECN_OFFSET) & 0x3F;
    }

    public BthFlyweight reserved6(int bits) {
        u8(ECN_OFFSET, (u8(ECN_OFFSET) & 0xC0) | (bits & 0x3F));
        return this;
    }

    public int destQpn() {
        return u24(DEST_QPN_OFFSET);
    }

    public BthFlyweight destQpn(int qpn) {
        u24(DEST_QPN_OFFSET, qpn);
        return this;
    }

    public boolean ackRequest() {
        return (u8(ACK_REQ_OFFSET) & 0x80) != 0;
    }

    public BthFlyweight ackRequest(boolean a) {
        u8(ACK_REQ_OFFSET, a ? u8(ACK_REQ_OFFSET) | 0x80 : u8(ACK_REQ_OFFSET) & ~0x80);
        return this;
    }

    /** The seven reserved bits of byte 8. */
    public int reserved7() {
        return u8(ACK_REQ_OFFSET) & 0x7F;
    }

    public BthFlyweight reserved7(int bits) {
        u8(ACK_REQ_OFFSET, (u8(ACK_REQ_OFFSET) & 0x80) | (bits & 0x7F));
        return this;
    }

    public int psn() {
        return u24(PSN_OFFSET);
    }

    public BthFlyweight psn(int psn) {
        u24(PSN_OFFSET, psn);
        return this;
    }

    /**
     * Writes a whole BTH in one go, as a requester does for every packet: two 32-bit words
     * and one more, no read-modify-write of the buffer.
     */
    public BthFlyweight set(int opcode, boolean se, int padCount, int pkey, int destQpn, boolean ackRequest, int psn) {
        i32(0, opcode << 24 | (se ? 0x80 << 16 : 0) | (padCount & 0x3) << 20 | (pkey & 0xFFFF));
        i32(4, destQpn & 0xFFFFFF);
        i32(8, (ackRequest ? 0x80000000 : 0) | (psn & 0xFFFFFF));
        return this;
    }
}
