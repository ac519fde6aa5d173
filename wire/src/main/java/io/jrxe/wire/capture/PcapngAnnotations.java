package io.jrxe.wire.capture;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
 * one packet at a time, alongside the frames, through one window of the file that is reused, so
 * that a capture of any size costs no more than its largest block. Not thread-safe.
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
    private static final int WINDOW = 1 << 20;

    private final Path path;
    private final FileChannel in;
    /** The part of the file read and not yet walked: from its position to its limit. */
    private ByteBuffer window = ByteBuffer.allocate(WINDOW).limit(0);
    private boolean endOfFile;
    private final List<String> interfaceNames = new ArrayList<>();
    /** The current section's byte order; null before the first section header (or in a classic pcap). */
    private ByteOrder order;
    private boolean ended;

    /** Opens the capture at {@code path}; fails only when the file cannot be opened. */
    public PcapngAnnotations(Path path) {
        this.path = path;
        try {
            this.in = FileChannel.open(path, StandardOpenOption.READ);
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

    /**
     * How many interfaces the current section has described so far: a capture with more than one may hold a
     * packet once per interface that saw it (jrxe writes one interface per port).
     */
    public int interfaces() {
        return interfaceNames.size();
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
        if (!have(8)) {
            return end();
        }
        ByteBuffer w = window;
        int at = w.position();
        if (w.order(ByteOrder.BIG_ENDIAN).getInt(at) == SECTION_HEADER) {
            if (!have(12)) {
                return end();
            }
            order = sectionByteOrder(window, window.position() + 8);
            if (order == null) {
                return end();
            }
            interfaceNames.clear();
            int length = window.order(order).getInt(window.position() + 4);
            // The section header's body after the magic (versions, section length, options) says nothing we need.
            if (length < 28 || length % 4 != 0 || length > LARGEST_BLOCK || !have(length)) {
                return end();
            }
            window.position(window.position() + length);
            return null;
        }
        if (order == null) {
            return end(); // a classic pcap, or not a capture at all
        }
        w.order(order);
        int type = w.getInt(at);
        int length = w.getInt(at + 4);
        if (length < 12 || length % 4 != 0 || length > LARGEST_BLOCK || !have(length)) {
            return end();
        }
        // The body: a view of the block without its type, length and trailing length, indexed from 0.
        ByteBuffer b = window.slice(window.position() + 8, length - 12).order(order);
        window.position(window.position() + length);
        return switch (type) {
            case INTERFACE_DESCRIPTION -> {
                interfaceNames.add(b.limit() >= 8 ? option(b, 8, IF_NAME) : null);
                yield null;
            }
            case ENHANCED_PACKET -> packet(b, b.limit() >= 4 ? b.getInt(0) : 0, 20, 12, interfaceNames);
            case OBSOLETE_PACKET -> packet(b, b.limit() >= 2 ? b.getShort(0) & 0xFFFF : 0, 20, 12, interfaceNames);
            case SIMPLE_PACKET -> new Annotation(0, name(interfaceNames, 0), null);
            default -> null;
        };
    }

    /** Whether {@code count} bytes from the window's position are (or can be made) readable in it. */
    private boolean have(int count) throws IOException {
        if (window.remaining() >= count) {
            return true;
        }
        if (window.capacity() < count) {
            ByteBuffer larger = ByteBuffer.allocate(Math.max(count, 2 * window.capacity()));
            larger.put(window);
            window = larger.flip();
        }
        window.compact();
        while (!endOfFile && window.position() < count) {
            if (in.read(window) < 0) {
                endOfFile = true;
            }
        }
        window.flip();
        return window.remaining() >= count;
    }

    private Annotation end() {
        ended = true;
        return null;
    }

    /** The byte order that the byte-order magic at {@code at} gives the section, or null when it is no magic. */
    private static ByteOrder sectionByteOrder(ByteBuffer w, int at) {
        if (w.order(ByteOrder.LITTLE_ENDIAN).getInt(at) == BYTE_ORDER_MAGIC) {
            return ByteOrder.LITTLE_ENDIAN;
        }
        return w.order(ByteOrder.BIG_ENDIAN).getInt(at) == BYTE_ORDER_MAGIC ? ByteOrder.BIG_ENDIAN : null;
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
                byte[] bytes = new byte[length];
                body.get(at + 4, bytes);
                String value = new String(bytes, StandardCharsets.UTF_8);
                values = values == null ? new StringBuilder(value) : values.append("; ").append(value);
            }
            at += 4 + ((length + 3) & ~3);
        }
        return values == null ? null : values.toString();
    }

    private static String name(List<String> interfaceNames, int id) {
        return id >= 0 && id < interfaceNames.size() ? interfaceNames.get(id) : null;
    }
}
