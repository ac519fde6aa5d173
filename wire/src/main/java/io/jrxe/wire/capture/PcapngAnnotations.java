package io.jrxe.wire.capture;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a pcapng file says about each packet beyond its bytes and time, which libpcap (and so
 * {@link CaptureReader}) does not pass on: the interface that captured it (jrxe writes one per
 * port) and its comments (jrxe's "dropped: ..." notes). Read with a small block walker of its own,
 * in file order, so that the n-th annotation belongs to the n-th frame {@link CaptureReader} returns.
 * <p>
 * Lenient by design: it only adds detail to frames read elsewhere, so a classic pcap gives no
 * annotations and a damaged block ends the list where it is (the frames past it get none). Read
 * one packet at a time, alongside the frames, so that a capture of any size costs no more than
 * the part of it that is used. Not thread-safe.
 */
public final class PcapngAnnotations implements AutoCloseable {
    /**
     * One packet's annotations.
     *
     * @param interfaceId   the interface id within its section
     * @param interfaceName the interface's if_name, or null when it has none
     * @param comment       its opt_comment values joined by "; ", or null when it has none
     */
    public record Annotation(int interfaceId, String interfaceName, String comment) {
    }

    private static final int SECTION_HEADER = 0x0A0D0D0A;
    private static final int INTERFACE_DESCRIPTION = 1;
    private static final int OBSOLETE_PACKET = 2;
    private static final int SIMPLE_PACKET = 3;
    private static final int ENHANCED_PACKET = 6;
    private static final int BYTE_ORDER_MAGIC = 0x1A2B3C4D;
    private static final int OPT_COMMENT = 1;
    private static final int IF_NAME = 2;
    /** A block longer than this is taken as damage rather than read into memory. */
    private static final int LARGEST_BLOCK = 64 << 20;

    private final Path path;
    private final DataInputStream in;
    private final List<String> interfaceNames = new ArrayList<>();
    /** The current section's byte order; null before the first section header (or in a classic pcap). */
    private ByteOrder order;
    private boolean ended;

    /** Opens the capture at {@code path}; fails only when the file cannot be opened. */
    public PcapngAnnotations(Path path) {
        this.path = path;
        try {
            this.in = new DataInputStream(new BufferedInputStream(Files.newInputStream(path), 1 << 16));
        } catch (IOException e) {
            throw new CaptureException("cannot read " + path + ": " + e.getMessage(), e);
        }
    }

    /**
     * The annotations of the first {@code limit} packets of the capture at {@code path}, in file
     * order; an empty list for a classic pcap. Fails only when the file cannot be opened.
     */
    public static List<Annotation> read(Path path, long limit) {
        try (PcapngAnnotations notes = new PcapngAnnotations(path)) {
            List<Annotation> annotations = new ArrayList<>();
            for (Annotation a = notes.next(); a != null && annotations.size() < limit; a = notes.next()) {
                annotations.add(a);
            }
            return annotations;
        }
    }

    /** The next packet's annotation, or null after the last packet, in a classic pcap, or at damage. */
    public Annotation next() {
        try {
            while (!ended) {
                Annotation a = nextBlock();
                if (a != null) {
                    return a;
                }
            }
            return null;
        } catch (IOException e) {
            ended = true;
            throw new CaptureException("cannot read " + path + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            in.close();
        } catch (IOException e) {
            // Only read from: nothing is lost.
        }
    }

    /** Reads one block: a packet's annotation, or null for any other block (or the end, which sets {@link #ended}). */
    private Annotation nextBlock() throws IOException {
        byte[] head = new byte[8];
        if (!readFully(in, head)) {
            return end();
        }
        if (ByteBuffer.wrap(head).getInt(0) == SECTION_HEADER) {
            order = sectionByteOrder(in);
            if (order == null) {
                return end();
            }
            interfaceNames.clear();
            int length = ByteBuffer.wrap(head).order(order).getInt(4);
            // The section header's body after the magic (versions, section length, options) says nothing we need.
            if (length < 28 || !skip(in, length - 12)) {
                return end();
            }
            return null;
        }
        if (order == null) {
            return end(); // a classic pcap, or not a capture at all
        }
        ByteBuffer h = ByteBuffer.wrap(head).order(order);
        int type = h.getInt(0);
        int length = h.getInt(4);
        if (length < 12 || length % 4 != 0 || length > LARGEST_BLOCK) {
            return end();
        }
        byte[] body = new byte[length - 12];
        if (!readFully(in, body) || !skip(in, 4)) {
            return end();
        }
        ByteBuffer b = ByteBuffer.wrap(body).order(order);
        return switch (type) {
            case INTERFACE_DESCRIPTION -> {
                interfaceNames.add(body.length >= 8 ? option(b, 8, IF_NAME) : null);
                yield null;
            }
            case ENHANCED_PACKET -> packet(b, b.getInt(0), 20, 12, interfaceNames);
            case OBSOLETE_PACKET -> packet(b, b.getShort(0) & 0xFFFF, 20, 12, interfaceNames);
            case SIMPLE_PACKET -> new Annotation(0, name(interfaceNames, 0), null);
            default -> null;
        };
    }

    private Annotation end() {
        ended = true;
        return null;
    }

    /** Reads the byte-order magic that follows a section header's type and length: the section's byte order. */
    private static ByteOrder sectionByteOrder(DataInputStream in) throws IOException {
        byte[] magic = new byte[4];
        if (!readFully(in, magic)) {
            return null;
        }
        if (ByteBuffer.wrap(magic).order(ByteOrder.LITTLE_ENDIAN).getInt() == BYTE_ORDER_MAGIC) {
            return ByteOrder.LITTLE_ENDIAN;
        }
        return ByteBuffer.wrap(magic).getInt() == BYTE_ORDER_MAGIC ? ByteOrder.BIG_ENDIAN : null;
    }

    /** A packet block: its interface, and its comments from the options after the (padded) captured bytes. */
    private static Annotation packet(ByteBuffer body, int interfaceId, int fixed, int capturedAt,
                                     List<String> interfaceNames) {
        String comment = null;
        if (body.limit() >= fixed) {
            int captured = body.getInt(capturedAt);
            long optionsAt = fixed + ((captured + 3L) & ~3L);
            if (captured >= 0 && optionsAt <= body.limit()) {
                comment = option(body, (int) optionsAt, OPT_COMMENT);
            }
        }
        return new Annotation(interfaceId, name(interfaceNames, interfaceId), comment);
    }

    /** The values of option {@code code} in the option list at {@code at}, joined by "; ", or null. */
    private static String option(ByteBuffer body, int at, int code) {
        StringBuilder values = null;
        while (at + 4 <= body.limit()) {
            int c = body.getShort(at) & 0xFFFF;
            int length = body.getShort(at + 2) & 0xFFFF;
            if (c == 0 || at + 4 + length > body.limit()) {
                break;
            }
            if (c == code) {
                String value = new String(body.array(), at + 4, length, StandardCharsets.UTF_8);
                values = values == null ? new StringBuilder(value) : values.append("; ").append(value);
            }
            at += 4 + ((length + 3) & ~3);
        }
        return values == null ? null : values.toString();
    }

    private static String name(List<String> interfaceNames, int id) {
        return id >= 0 && id < interfaceNames.size() ? interfaceNames.get(id) : null;
    }

    private static boolean readFully(DataInputStream in, byte[] into) throws IOException {
        try {
            in.readFully(into);
            return true;
        } catch (EOFException e) {
            return false;
        }
    }

    private static boolean skip(DataInputStream in, long count) throws IOException {
        if (count < 0) {
            return false;
        }
        try {
            in.skipNBytes(count);
            return true;
        } catch (EOFException e) {
            return false;
        }
    }
}
