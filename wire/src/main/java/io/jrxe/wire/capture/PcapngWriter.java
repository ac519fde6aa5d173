package io.jrxe.wire.capture;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;

/**
 * Writes a pcapng capture (one section, any number of interfaces) that Wireshark, tshark and
 * libpcap read, in pure Java.
 * <p>
 * pcapng rather than classic pcap because jrxe needs what only pcapng carries: nanosecond
 * timestamps declared per interface ({@code if_tsresol}), one interface per emulated port, and a
 * comment on each packet (why it was sent, dropped or retransmitted).
 * <p>
 * Blocks are always little-endian: the section header's byte-order magic tells readers so, which
 * makes the file the same on every host. Blocks are encoded into a buffer that is handed over only
 * when full, so writing a packet allocates nothing unless it has a comment.
 * <p>
 * Not thread-safe: one thread (the NIC thread that owns the port) writes.
 */
public final class PcapngWriter implements AutoCloseable {
    static final int SECTION_HEADER_BLOCK = 0x0A0D0D0A;
    static final int INTERFACE_DESCRIPTION_BLOCK = 1;
    static final int ENHANCED_PACKET_BLOCK = 6;
    static final int BYTE_ORDER_MAGIC = 0x1A2B3C4D;

    static final int OPT_ENDOFOPT = 0;
    static final int OPT_COMMENT = 1;
    static final int SHB_USERAPPL = 4;
    static final int IF_NAME = 2;
    static final int IF_TSRESOL = 9;
    /** if_tsresol value: a power of ten, 10^-9 seconds. */
    static final int TSRESOL_NANOSECONDS = 9;

    /** Type, total length, interface id, timestamp high and low, captured and original length, total length. */
    private static final int EPB_FIXED_LENGTH = 32;
    /** Type, total length, link type, reserved, snapshot length, total length. */
    private static final int IDB_FIXED_LENGTH = 20;
    /** Type, total length, byte-order magic, major and minor version, section length, total length. */
    private static final int SHB_FIXED_LENGTH = 28;
    /** The longest fixed run of fields written at once: the EPB's fields before the packet data. */
    private static final int LONGEST_FIXED_RUN = 28;
    private static final byte[] ZEROS = new byte[3];
    private static final int MAX_OPTION_LENGTH = 0xFFFF;
    private static final int BUFFER_SIZE = 64 * 1024;
    private static final byte[] USER_APPLICATION = "jrxe".getBytes(StandardCharsets.UTF_8);

    private final BlockOutput out;
    private final String target;
    private ByteBuffer buffer;
    /** A run of fixed fields is encoded here, then copied in like packet bytes: see {@link #putFields()}. */
    private final ByteBuffer fields = ByteBuffer.allocate(LONGEST_FIXED_RUN).order(ByteOrder.LITTLE_ENDIAN);
    private int[] snapLengths = new int[4];
    private int interfaceCount;
    private long bytesWritten;
    private long packetsWritten;
    private boolean closed;

    /** Writes to {@code out}, which this writer then owns: {@link #close()} closes it. */
    public PcapngWriter(OutputStream out) {
        this(new StreamOutput(Objects.requireNonNull(out, "out")), "the capture stream");
    }

    /** Creates (or replaces) the file at {@code path}; a thread of its own writes it (see {@link BackgroundFileOutput}). */
    public PcapngWriter(Path path) {
        this(open(path), path.toString());
    }

    /** Writes to {@code out}, named {@code target} in messages (package-private: for tests of the outputs). */
    PcapngWriter(BlockOutput out, String target) {
        this.out = out;
        this.target = target;
        this.buffer = out.first();
        writeSectionHeader();
    }

    private static BlockOutput open(Path path) {
        try {
            return new BackgroundFileOutput(path);
        } catch (IOException e) {
            throw new CaptureException("cannot create capture " + path + ": " + describe(e), e);
        }
    }

    /**
     * Where full buffers of blocks go. The writer encodes into the buffer {@link #first()} gave and
     * hands it over when full, getting an empty one back: a file takes whole buffers on a thread
     * of its own, a stream is written at once. A buffer is handed over filled to its capacity (blocks
     * run on into the next buffer), except the last one before a flush or close: a file written
     * with direct I/O needs whole blocks of the disk.
     */
    interface BlockOutput extends AutoCloseable {
        /** The first buffer to encode into. */
        ByteBuffer first();

        /** Takes buffer[0, position) and returns an empty buffer to go on with. */
        ByteBuffer swap(ByteBuffer filled);

        /** Everything handed over so far reaches its destination. */
        void flush() throws IOException;

        @Override
        void close() throws IOException;
    }

    /** A stream written on the caller's thread, from one reusable heap buffer. */
    private static final class StreamOutput implements BlockOutput {
        private final OutputStream stream;

        StreamOutput(OutputStream stream) {
            this.stream = stream;
        }

        @Override
        public ByteBuffer first() {
            return ByteBuffer.allocate(BUFFER_SIZE);
        }

        @Override
        public ByteBuffer swap(ByteBuffer filled) {
            try {
                stream.write(filled.array(), 0, filled.position());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return filled.clear();
        }

        @Override
        public void flush() throws IOException {
            stream.flush();
        }

        @Override
        public void close() throws IOException {
            stream.close();
        }
    }

    /**
     * Declares an interface (one per emulated port) whose packets are timestamped in nanoseconds.
     *
     * @param name     the interface's name as Wireshark shows it, or null for none
     * @param linkType a LINKTYPE_ number, see {@link io.jrxe.wire.framing.LinkType}
     * @param snapLen  the most bytes of a frame to keep; longer frames are cut. 0 means no limit
     * @return the interface id to pass to {@code write}: 0 for the first interface, then 1, 2, ...
     */
    public int addInterface(String name, int linkType, int snapLen) {
        ensureOpen();
        if (linkType < 0 || linkType > 0xFFFF) {
            throw new IllegalArgumentException("link type " + linkType + " is not a 16-bit LINKTYPE_ number");
        }
        if (snapLen < 0) {
            throw new IllegalArgumentException("snapshot length " + snapLen + " is negative");
        }
        byte[] nameBytes = name == null ? null : optionValue("interface name", name);
        int optionsLength = (nameBytes == null ? 0 : optionLength(nameBytes.length)) + optionLength(1) + 4;
        int totalLength = IDB_FIXED_LENGTH + optionsLength;

        fields.clear().putInt(INTERFACE_DESCRIPTION_BLOCK).putInt(totalLength)
                .putShort((short) linkType).putShort((short) 0).putInt(snapLen);
        putFields();
        if (nameBytes != null) {
            putOption(IF_NAME, nameBytes);
        }
        fields.clear().putShort((short) IF_TSRESOL).putShort((short) 1).put((byte) TSRESOL_NANOSECONDS)
                .put((byte) 0).put((byte) 0).put((byte) 0)
                .putShort((short) OPT_ENDOFOPT).putShort((short) 0)
                .putInt(totalLength);
        putFields();
        bytesWritten += totalLength;

        if (interfaceCount == snapLengths.length) {
            snapLengths = Arrays.copyOf(snapLengths, interfaceCount * 2);
        }
        snapLengths[interfaceCount] = snapLen;
        return interfaceCount++;
    }

    /**
     * Appends one packet. The frame's bytes from {@code offset} to {@code offset + length} are
     * copied (cut to the interface's snapshot length); the buffer's position and limit are left alone.
     *
     * @param timestampNanos  nanoseconds since the Unix epoch
     * @param commentOrNull   a note Wireshark shows with the packet (frame.comment), or null
     */
    public void write(int interfaceId, long timestampNanos, ByteBuffer frame, int offset, int length, String commentOrNull) {
        Objects.checkFromIndexSize(offset, length, frame.limit());
        writePacket(interfaceId, timestampNanos, frame, null, offset, length, commentOrNull);
    }

    /** Like {@link #write(int, long, ByteBuffer, int, int, String)}, from an array. */
    public void write(int interfaceId, long timestampNanos, byte[] frame, int offset, int length, String commentOrNull) {
        Objects.checkFromIndexSize(offset, length, frame.length);
        writePacket(interfaceId, timestampNanos, null, frame, offset, length, commentOrNull);
    }

    /**
     * Appends one packet whose frame is in two pieces: {@code head[0, headLength)} (the headers a
     * capture framed) then {@code body[bodyOffset, bodyOffset + bodyLength)} (the packet's bytes
     * where the NIC has them), so that the body is copied once, and only as far as the snapshot length.
     */
    public void write(int interfaceId, long timestampNanos, ByteBuffer head, int headLength, ByteBuffer body, int bodyOffset,
                      int bodyLength, String commentOrNull) {
        Objects.checkFromIndexSize(0, headLength, head.limit());
        Objects.checkFromIndexSize(bodyOffset, bodyLength, body.limit());
        int length = headLength + bodyLength;
        byte[] comment = encodeComment(commentOrNull);
        int captured = startPacket(interfaceId, timestampNanos, length, comment);
        int fromHead = Math.min(headLength, captured);
        putBytes(head, 0, fromHead);
        putBytes(body, bodyOffset, captured - fromHead);
        endPacket(captured, comment);
    }

    // One of bufferSource and arraySource is null: two sources share one encoder without wrapping
    // an array in a ByteBuffer per packet.
    private void writePacket(int interfaceId, long timestampNanos, ByteBuffer bufferSource, byte[] arraySource,
                             int offset, int length, String commentOrNull) {
        byte[] comment = encodeComment(commentOrNull);
        int captured = startPacket(interfaceId, timestampNanos, length, comment);
        if (bufferSource != null) {
            putBytes(bufferSource, offset, captured);
        } else {
            putBytes(arraySource, offset, captured);
        }
        endPacket(captured, comment);
    }

    private int capturedLength(int interfaceId, int length) {
        int snapLen = snapLengths[interfaceId];
        return snapLen > 0 && length > snapLen ? snapLen : length;
    }

    private byte[] encodeComment(String commentOrNull) {
        return commentOrNull == null || commentOrNull.isEmpty() ? null : optionValue("comment", commentOrNull);
    }

    /** Writes an enhanced packet block's fields before the data; returns how many of its bytes are kept. */
    private int startPacket(int interfaceId, long timestampNanos, int length, byte[] comment) {
        ensureOpen();
        if (interfaceId < 0 || interfaceId >= interfaceCount) {
            throw new IllegalArgumentException("no interface " + interfaceId + ": declare it with addInterface first ("
                    + interfaceCount + " declared)");
        }
        if (timestampNanos < 0) {
            throw new IllegalArgumentException("timestamp " + timestampNanos + " ns is before 1970");
        }
        int captured = capturedLength(interfaceId, length);
        fields.clear().putInt(ENHANCED_PACKET_BLOCK).putInt(totalLength(captured, comment)).putInt(interfaceId)
                .putInt((int) (timestampNanos >>> 32)).putInt((int) timestampNanos)
                .putInt(captured).putInt(length);
        putFields();
        return captured;
    }

    private int totalLength(int captured, byte[] comment) {
        return EPB_FIXED_LENGTH + padded(captured) + (comment == null ? 0 : optionLength(comment.length) + 4);
    }

    /** Writes what follows the data: padding, the comment, the total length again. */
    private void endPacket(int captured, byte[] comment) {
        int totalLength = totalLength(captured, comment);
        putPadding(captured);
        if (comment != null) {
            putOption(OPT_COMMENT, comment);
            fields.clear().putShort((short) OPT_ENDOFOPT).putShort((short) 0);
        } else {
            fields.clear();
        }
        fields.putInt(totalLength);
        putFields();
        bytesWritten += totalLength;
        packetsWritten++;
    }

    /** Bytes of capture written so far, including what is still buffered: for size limits. */
    public long bytesWritten() {
        return bytesWritten;
    }

    /** Packets written so far: for count limits. */
    public long packetsWritten() {
        return packetsWritten;
    }

    /** Hands everything written so far to the stream and flushes it (so a reader sees whole blocks). */
    public void flush() {
        ensureOpen();
        drain();
        try {
            out.flush();
        } catch (IOException e) {
            throw writeFailed(e);
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try (out) {
            drain();
            out.flush();
        } catch (IOException e) {
            throw writeFailed(e);
        }
    }

    private void writeSectionHeader() {
        int optionsLength = optionLength(USER_APPLICATION.length) + 4;
        int totalLength = SHB_FIXED_LENGTH + optionsLength;
        fields.clear().putInt(SECTION_HEADER_BLOCK).putInt(totalLength).putInt(BYTE_ORDER_MAGIC)
                .putShort((short) 1).putShort((short) 0)
                // Section length -1: unknown, so readers walk the blocks instead of skipping the section.
                .putLong(-1L);
        putFields();
        putOption(SHB_USERAPPL, USER_APPLICATION);
        fields.clear().putShort((short) OPT_ENDOFOPT).putShort((short) 0).putInt(totalLength);
        putFields();
        bytesWritten += totalLength;
    }

    private void putOption(int code, byte[] value) {
        fields.clear().putShort((short) code).putShort((short) value.length);
        putFields();
        putBytes(value, 0, value.length);
        putPadding(value.length);
    }

    private void putBytes(byte[] source, int offset, int length) {
        while (length > 0) {
            if (!buffer.hasRemaining()) {
                drain();
            }
            int n = Math.min(length, buffer.remaining());
            buffer.put(source, offset, n);
            offset += n;
            length -= n;
        }
    }

    private void putBytes(ByteBuffer source, int offset, int length) {
        while (length > 0) {
            if (!buffer.hasRemaining()) {
                drain();
            }
            int n = Math.min(length, buffer.remaining());
            buffer.put(buffer.position(), source, offset, n);
            buffer.position(buffer.position() + n);
            offset += n;
            length -= n;
        }
    }

    /** Zeros that bring a field of {@code length} bytes to the next 32-bit boundary, as pcapng requires. */
    private void putPadding(int length) {
        putBytes(ZEROS, 0, padded(length) - length);
    }

    /** The fields encoded since {@code fields.clear()}, running on into the next buffer when this one fills. */
    private void putFields() {
        putBytes(fields.array(), 0, fields.position());
    }

    private void drain() {
        if (buffer.position() == 0) {
            return;
        }
        try {
            buffer = out.swap(buffer);
        } catch (UncheckedIOException e) {
            buffer.clear();
            throw writeFailed(e.getCause());
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the pcapng writer for " + target + " is closed");
        }
    }

    private CaptureException writeFailed(IOException e) {
        return new CaptureException("cannot write capture " + target + ": " + describe(e), e);
    }

    private static byte[] optionValue(String what, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > MAX_OPTION_LENGTH) {
            throw new IllegalArgumentException(what + " is " + bytes.length + " bytes in UTF-8; a pcapng option holds at most "
                    + MAX_OPTION_LENGTH);
        }
        return bytes;
    }

    /** An option's code and length fields plus its value padded to 32 bits. */
    private static int optionLength(int valueLength) {
        return 4 + padded(valueLength);
    }

    private static int padded(int length) {
        return (length + 3) & ~3;
    }

    static String describe(IOException e) {
        // The file-system exceptions' messages are only the path, which the caller's sentence already names.
        return switch (e) {
            case java.nio.file.NoSuchFileException n -> "its directory does not exist";
            case java.nio.file.AccessDeniedException a -> "permission denied";
            case java.nio.file.FileSystemException f when f.getReason() != null -> f.getReason();
            default -> e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        };
    }
}
