package io.jrxe.wire.capture;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads a classic pcap or pcapng capture one frame at a time through libpcap, called directly with
 * java.lang.foreign: each frame's bytes are copied into one buffer that the stream reuses, so reading a
 * capture of any size allocates nothing per frame and holds one frame at a time. It accepts exactly
 * the files {@link CaptureReader} accepts (the same libpcap reads them) and refuses the others with
 * the same sentences; it is that reader's fast path for tools that go through a whole capture once
 * (Pcap4J copies every frame into a new array and makes a {@code Timestamp} for it, which costs ten
 * times as much as libpcap's own reading).
 * <p>
 * Timestamps are in nanoseconds; libpcap scales microsecond captures up. Not thread-safe.
 */
public final class CaptureStream implements AutoCloseable {
    /** libpcap's PCAP_TSTAMP_PRECISION_NANO. */
    private static final int NANO = 1;
    private static final int ERRBUF_SIZE = 256;
    /** pcap_next_ex's results: a frame, the end of the file; anything else negative is an error. */
    private static final int NEXT_FRAME = 1;
    private static final int END_OF_FILE = -2;
    /** struct pcap_pkthdr on LP64: struct timeval (two longs), caplen, len. */
    private static final long HEADER_SIZE = 24;
    private static final long CAPLEN_AT = 16;
    private static final long LEN_AT = 20;

    private final Path path;
    private final Arena arena = Arena.ofConfined();
    private final MemorySegment handle;
    private final MemorySegment headerPointer;
    private final MemorySegment dataPointer;
    private final int linkType;
    private byte[] data = new byte[1 << 16];
    private long frameNumber;
    private long timestampNanos;
    private int capturedLength;
    private int originalLength;
    private boolean ended;
    private boolean closed;

    public CaptureStream(Path path) {
        this.path = path;
        CaptureFiles.checkReadable(path);
        Libpcap pcap = Libpcap.get();
        MemorySegment opened;
        try {
            MemorySegment errbuf = arena.allocate(ERRBUF_SIZE);
            opened = (MemorySegment) pcap.openOffline.invokeExact(arena.allocateFrom(path.toString()), NANO, errbuf);
            if (opened.equals(MemorySegment.NULL)) {
                throw CaptureFiles.notOpened(path, errbuf.getString(0), null);
            }
            this.linkType = (int) pcap.datalink.invokeExact(opened);
        } catch (RuntimeException | Error e) {
            arena.close();
            throw e;
        } catch (Throwable e) {
            arena.close();
            throw new IllegalStateException("calling libpcap: " + e, e);
        }
        this.handle = opened;
        this.headerPointer = arena.allocate(ValueLayout.ADDRESS);
        this.dataPointer = arena.allocate(ValueLayout.ADDRESS);
    }

    public Path path() {
        return path;
    }

    /** The capture's LINKTYPE_ (the first interface's, for pcapng), see {@link io.jrxe.wire.framing.LinkType}. */
    public int linkType() {
        return linkType;
    }

    /**
     * Moves to the next frame; false after the last one. A file damaged or cut part way throws
     * {@link CaptureException} once the frames before the damage have been read.
     */
    public boolean next() {
        if (closed) {
            throw new IllegalStateException("the reader of " + path + " is closed");
        }
        if (ended) {
            return false;
        }
        int result;
        try {
            result = (int) Libpcap.get().nextEx.invokeExact(handle, headerPointer, dataPointer);
        } catch (Throwable e) {
            throw new IllegalStateException("calling libpcap: " + e, e);
        }
        if (result != NEXT_FRAME) {
            ended = true;
            if (result == END_OF_FILE) {
                return false;
            }
            throw CaptureFiles.damaged(path, frameNumber, libpcapError(), null);
        }
        MemorySegment header = headerPointer.get(ValueLayout.ADDRESS, 0).reinterpret(HEADER_SIZE);
        int captured = header.get(ValueLayout.JAVA_INT, CAPLEN_AT);
        if (captured > data.length) {
            data = Arrays.copyOf(data, Integer.highestOneBit(captured) << 1);
        }
        MemorySegment bytes = dataPointer.get(ValueLayout.ADDRESS, 0).reinterpret(captured);
        MemorySegment.copy(bytes, ValueLayout.JAVA_BYTE, 0, data, 0, captured);
        capturedLength = captured;
        originalLength = header.get(ValueLayout.JAVA_INT, LEN_AT);
        // With nanosecond precision the second field is nanoseconds; a damaged record may hold more than a second's worth.
        timestampNanos = header.get(ValueLayout.JAVA_LONG, 0) * 1_000_000_000L + header.get(ValueLayout.JAVA_LONG, 8);
        frameNumber++;
        return true;
    }

    /** The current frame's position in the file, starting at 1 (as Wireshark numbers frames). */
    public long frameNumber() {
        return frameNumber;
    }

    /** The current frame's capture time in nanoseconds since the Unix epoch. */
    public long timestampNanos() {
        return timestampNanos;
    }

    /** Bytes of the current frame in the file: the first {@code capturedLength()} bytes of {@link #data()}. */
    public int capturedLength() {
        return capturedLength;
    }

    /** Length of the current frame on the wire, more than {@link #capturedLength()} when the snapshot length cut it. */
    public int originalLength() {
        return originalLength;
    }

    /** The current frame's bytes, from index 0; the array is reused (and may be replaced) by {@link #next()}. */
    public byte[] data() {
        return data;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            try {
                Libpcap.get().close.invokeExact(handle);
            } catch (Throwable e) {
                // Only read from: nothing is lost when closing fails.
            }
            arena.close();
        }
    }

    private String libpcapError() {
        try {
            MemorySegment message = (MemorySegment) Libpcap.get().geterr.invokeExact(handle);
            return message.reinterpret(ERRBUF_SIZE).getString(0);
        } catch (Throwable e) {
            return "libpcap gave no reason";
        }
    }

    /** The libpcap functions the stream calls, bound once for the JVM's life. */
    private static final class Libpcap {
        /** Debian's soname first, then other distributions' and the development link, then macOS's and Npcap's (Windows). */
        private static final String[] NAMES = {"libpcap.so.0.8", "libpcap.so.1", "libpcap.so", "libpcap.dylib", "wpcap.dll"};
        private static volatile Libpcap loaded;

        final MethodHandle openOffline;
        final MethodHandle datalink;
        final MethodHandle nextEx;
        final MethodHandle geterr;
        final MethodHandle close;

        private Libpcap(SymbolLookup lib) {
            Linker linker = Linker.nativeLinker();
            openOffline = bind(linker, lib, "pcap_open_offline_with_tstamp_precision", FunctionDescriptor.of(
                    ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
            datalink = bind(linker, lib, "pcap_datalink", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
            nextEx = bind(linker, lib, "pcap_next_ex", FunctionDescriptor.of(ValueLayout.JAVA_INT,
                    ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
            geterr = bind(linker, lib, "pcap_geterr", FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS));
            close = bind(linker, lib, "pcap_close", FunctionDescriptor.ofVoid(ValueLayout.ADDRESS));
        }

        static Libpcap get() {
            Libpcap l = loaded;
            if (l == null) {
                synchronized (Libpcap.class) {
                    l = loaded;
                    if (l == null) {
                        try {
                            l = new Libpcap(open());
                        } catch (IllegalCallerException e) {
                            throw new CaptureException(PcapLibrary.NATIVE_ACCESS_DENIED, e);
                        }
                        loaded = l;
                    }
                }
            }
            return l;
        }

        private static SymbolLookup open() {
            // The switch Pcap4J reads names the library for both readers, so that one setting moves both.
            String chosen = System.getProperty("org.pcap4j.core.pcapLibName");
            String[] names = chosen != null ? new String[] {chosen} : NAMES;
            for (String name : names) {
                try {
                    return SymbolLookup.libraryLookup(name, Arena.global());
                } catch (IllegalArgumentException e) {
                    // not under this name: try the next
                }
            }
            throw new CaptureException(PcapLibrary.MISSING);
        }

        private static MethodHandle bind(Linker linker, SymbolLookup lib, String function, FunctionDescriptor signature) {
            MemorySegment address = lib.find(function).orElseThrow(() -> new CaptureException(
                    CaptureFiles.NEEDS_LIBPCAP_1_5 + " (" + function + " is missing)"));
            return linker.downcallHandle(address, signature);
        }
    }
}
