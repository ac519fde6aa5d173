package io.jrxe.wire.cm;

import io.jrxe.wire.header.Flyweight;

import java.util.List;

/**
 * A view of one CM message in place: the 232 bytes of a CM MAD after its {@link MadHeaderFlyweight}
 * (wrap it at the MAD's offset + {@link MadHeaderFlyweight#LENGTH}). Every field is a {@link CmField}
 * at the offset IBTA gives it; subclasses name them. Nothing is allocated; byte-range fields are
 * copied to and from arrays the caller owns.
 *
 * <p>Bounds: the accessors read and write the wrapped buffer with absolute indexes and no check
 * of their own, so a field that lies past the buffer's limit throws the buffer's
 * {@link IndexOutOfBoundsException}. Callers holding untrusted bytes check {@link #fits} first.
 */
public abstract class CmMessageFlyweight<T extends CmMessageFlyweight<T>> extends Flyweight<T> {
    /** Bytes of a CM message: a 256-byte MAD less its 24-byte header. */
    public static final int LENGTH = MadHeaderFlyweight.MAD_LENGTH - MadHeaderFlyweight.LENGTH;

    @Override
    public final int length() {
        return LENGTH;
    }

    /** True when the wrapped buffer holds the whole message (up to its limit). */
    public final boolean fits() {
        return offset >= 0 && buffer.limit() - offset >= LENGTH;
    }

    /** Which CM attribute this message is. */
    public abstract CmAttribute attribute();

    /** Every field of the message in wire order, reserved bits included; together they cover its 232 bytes. */
    public final List<CmField> fields() {
        return attribute().fields();
    }

    /** The message's private data field: what the consumer (for RDMA CM, librdmacm's peer) sent along. */
    protected abstract CmField privateDataField();

    /** Bytes of private data this message carries (its field's whole length). */
    public final int privateDataLength() {
        return privateDataField().length();
    }

    /** Copies the whole private data field into {@code dst} at {@code dstOffset}. */
    public final T getPrivateData(byte[] dst, int dstOffset) {
        return getBytes(privateDataField(), dst, dstOffset);
    }

    /** Writes {@code length} bytes of private data and zeros the rest of the field. */
    public final T putPrivateData(byte[] src, int srcOffset, int length) {
        return putBytes(privateDataField(), src, srcOffset, length);
    }

    /** Offset in the buffer of the private data's first byte (for a flyweight over it, e.g. the IP CM header). */
    public final int privateDataOffset() {
        return offset + privateDataField().byteOffset();
    }

    protected final long get(CmField field) {
        return field.get(buffer, offset);
    }

    @SuppressWarnings("unchecked")
    protected final T set(CmField field, long value) {
        field.set(buffer, offset, value);
        return (T) this;
    }

    protected final T set(CmField field, boolean value) {
        return set(field, value ? 1 : 0);
    }

    @SuppressWarnings("unchecked")
    protected final T getBytes(CmField field, byte[] dst, int dstOffset) {
        field.copyTo(buffer, offset, dst, dstOffset);
        return (T) this;
    }

    @SuppressWarnings("unchecked")
    protected final T putBytes(CmField field, byte[] src, int srcOffset, int length) {
        field.copyFrom(buffer, offset, src, srcOffset, length);
        return (T) this;
    }
}
