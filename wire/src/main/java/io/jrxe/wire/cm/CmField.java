package io.jrxe.wire.cm;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * One field of a CM message, placed as IBTA's CM chapter tabulates it (vol. 1, chapter 12, the
 * message contents tables): a byte offset into the message (the MAD's data, after the 24-byte
 * MAD header), a bit offset counted from that byte's most significant bit, and a width in bits.
 * Numbers are big-endian and at most 64 bits wide; wider fields (GIDs, private data, ARI) are
 * whole bytes. A field reads and writes itself in place, allocating nothing; the message
 * flyweights give every field a name, and the dissector walks a message's fields in wire order.
 */
public final class CmField {
    /** What a field's value means, so that tools can show it (the codec itself treats all numbers alike). */
    public enum Kind {
        /** A count or a small code, shown in decimal. */
        NUMBER,
        /** A one-bit flag. */
        FLAG,
        /** An identifier (communication ID, QPN, PSN, Q_Key, GUID, P_Key, ...), shown in hex. */
        HEX,
        /** A service ID, which may be an RDMA IP CM one ({@link IpCmServiceId}). */
        SERVICE_ID,
        /** A 4.096 us x 2^n time code (CM response timeouts, target ACK delay, MRA service timeout). */
        TIMEOUT,
        /** A path's local ACK timeout: 4.096 us x 2^n as for a QP's timeout attribute, where 0 means none. */
        ACK_TIMEOUT,
        /** An IB MTU code (1 = 256 bytes ... 5 = 4096). */
        MTU,
        /** A REJ reason ({@link RejectReason}). */
        REJECT_REASON,
        /** Which message a REJ or MRA answers: 0 REQ, 1 REP, 2 other. */
        MESSAGE,
        /** An APR status ({@link AlternatePathStatus}). */
        AP_STATUS,
        /** A SIDR_REP status ({@link SidrStatus}). */
        SIDR_STATUS,
        /** A 16-byte GID, in RoCE an IPv6 or IPv4-mapped address. */
        GID,
        /** Opaque bytes: private data, additional information. */
        BYTES,
        /** Bits the spec reserves; senders write zeros, but a codec keeps what it finds. */
        RESERVED
    }

    private final String name;
    private final String label;
    private final Kind kind;
    private final int byteOffset;
    private final int bitOffset;
    private final int width;
    // For numbers: how many bytes the field touches, and how far its lowest bit sits above the last byte's bit 0.
    private final int span;
    private final int shift;
    private final long mask;

    private CmField(String name, String label, Kind kind, int byteOffset, int bitOffset, int width) {
        if (byteOffset < 0 || bitOffset < 0 || bitOffset > 7 || width < 1) {
            throw new IllegalArgumentException("bad placement of " + name);
        }
        boolean wide = kind == Kind.GID || kind == Kind.BYTES;
        if (wide ? bitOffset != 0 || width % 8 != 0 : width > 64 || bitOffset + width > 64) {
            throw new IllegalArgumentException(name + ": " + width + " bits at bit " + bitOffset + " do not fit a "
                    + (wide ? "byte range" : "number"));
        }
        this.name = Objects.requireNonNull(name);
        this.label = Objects.requireNonNull(label);
        this.kind = kind;
        this.byteOffset = byteOffset;
        this.bitOffset = bitOffset;
        this.width = width;
        this.span = (bitOffset + width + 7) / 8;
        this.shift = span * 8 - bitOffset - width;
        this.mask = width == 64 ? -1L : (1L << width) - 1;
    }

    /** A number of {@code width} bits starting at bit {@code bitOffset} (0 = most significant) of byte {@code byteOffset}. */
    public static CmField number(Kind kind, String name, String label, int byteOffset, int bitOffset, int width) {
        if (kind == Kind.GID || kind == Kind.BYTES) {
            throw new IllegalArgumentException(name + ": use bytes() for " + kind);
        }
        return new CmField(name, label, kind, byteOffset, bitOffset, width);
    }

    /** A run of {@code length} whole bytes (a GID, private data, additional information). */
    public static CmField bytes(Kind kind, String name, String label, int byteOffset, int length) {
        if (kind != Kind.GID && kind != Kind.BYTES) {
            throw new IllegalArgumentException(name + ": " + kind + " is not a byte range");
        }
        return new CmField(name, label, kind, byteOffset, 0, length * 8);
    }

    /** Reserved bits, named after where they are ({@code reserved_91} or {@code reserved_90_4}). */
    public static CmField reserved(int byteOffset, int bitOffset, int width) {
        String name = "reserved_" + byteOffset + (bitOffset == 0 ? "" : "_" + bitOffset);
        return new CmField(name, "reserved", Kind.RESERVED, byteOffset, bitOffset, width);
    }

    /** The field's name in snake case, e.g. {@code local_qpn}: its key in jrxe's JSON. */
    public String name() {
        return name;
    }

    /** The field's name in words, e.g. "local QPN". */
    public String label() {
        return label;
    }

    public Kind kind() {
        return kind;
    }

    public int byteOffset() {
        return byteOffset;
    }

    /** Bit offset within the first byte, 0 being its most significant bit. */
    public int bitOffset() {
        return bitOffset;
    }

    /** Width in bits. */
    public int width() {
        return width;
    }

    /** Where the field starts counted in bits from the message's first bit (IBTA's byte.bit notation flattened). */
    public int bitPosition() {
        return byteOffset * 8 + bitOffset;
    }

    /** True for fields read and written as byte arrays (GIDs, private data, additional information). */
    public boolean isByteRange() {
        return kind == Kind.GID || kind == Kind.BYTES;
    }

    /** Length in bytes of a byte-range field. */
    public int length() {
        return width / 8;
    }

    /** The number stored in the message at {@code base}: unsigned, at most {@link #width()} bits. */
    public long get(ByteBuffer buffer, int base) {
        requireNumber();
        int at = base + byteOffset;
        long raw = 0;
        for (int i = 0; i < span; i++) {
            raw = raw << 8 | (buffer.get(at + i) & 0xFF);
        }
        return raw >>> shift & mask;
    }

    /** Stores the low {@link #width()} bits of {@code value}; the bits around the field keep what they were. */
    public void set(ByteBuffer buffer, int base, long value) {
        requireNumber();
        int at = base + byteOffset;
        long raw = 0;
        for (int i = 0; i < span; i++) {
            raw = raw << 8 | (buffer.get(at + i) & 0xFF);
        }
        raw = raw & ~(mask << shift) | (value & mask) << shift;
        for (int i = span - 1; i >= 0; i--) {
            buffer.put(at + i, (byte) raw);
            raw >>>= 8;
        }
    }

    /** Copies the whole byte range into {@code dst} at {@code dstOffset}. */
    public void copyTo(ByteBuffer buffer, int base, byte[] dst, int dstOffset) {
        requireBytes();
        buffer.get(base + byteOffset, dst, dstOffset, length());
    }

    /**
     * Writes {@code count} bytes of {@code src} at the start of the byte range and zeros the rest
     * of it: private data shorter than its field goes out padded with zeros.
     *
     * @throws IllegalArgumentException when {@code count} is larger than the field
     */
    public void copyFrom(ByteBuffer buffer, int base, byte[] src, int srcOffset, int count) {
        requireBytes();
        if (count < 0 || count > length()) {
            throw new IllegalArgumentException(name + " holds " + length() + " bytes, not " + count);
        }
        int at = base + byteOffset;
        buffer.put(at, src, srcOffset, count);
        for (int i = count; i < length(); i++) {
            buffer.put(at + i, (byte) 0);
        }
    }

    /** True when every bit of the field is zero (any kind of field). */
    public boolean isZero(ByteBuffer buffer, int base) {
        if (!isByteRange()) {
            return get(buffer, base) == 0;
        }
        for (int i = 0; i < length(); i++) {
            if (buffer.get(base + byteOffset + i) != 0) {
                return false;
            }
        }
        return true;
    }

    private void requireNumber() {
        if (isByteRange()) {
            throw new UnsupportedOperationException(name + " is a byte range: use copyTo/copyFrom");
        }
    }

    private void requireBytes() {
        if (!isByteRange()) {
            throw new UnsupportedOperationException(name + " is a number: use get/set");
        }
    }

    @Override
    public String toString() {
        return name + "@" + byteOffset + (bitOffset == 0 ? "" : "." + bitOffset) + "/" + width;
    }
}
