package io.jrxe.tools.compare;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.zip.CRC32;

/** A region of a node's buffer in a few words, so that two setups' memories compare as text. */
final class MemoryView {
    private MemoryView() {
    }

    /** "64 x 0x5a" when every byte is the same, the text in quotes when it is printable ASCII, else its CRC-32. */
    static String describe(String node, MemorySegment memory, long offset, int length) {
        MemorySegment region = memory.asSlice(offset, length);
        byte first = region.get(ValueLayout.JAVA_BYTE, 0);
        boolean same = true;
        boolean printable = true;
        for (long i = 0; i < length; i++) {
            byte v = region.get(ValueLayout.JAVA_BYTE, i);
            same &= v == first;
            printable &= v >= 0x20 && v < 0x7f;
        }
        String where = node + "+" + offset + ": ";
        if (same) {
            return where + length + " x 0x" + String.format("%02x", first & 0xFF);
        }
        byte[] bytes = region.toArray(ValueLayout.JAVA_BYTE);
        if (printable) {
            return where + "\"" + new String(bytes, java.nio.charset.StandardCharsets.US_ASCII) + "\"";
        }
        CRC32 crc = new CRC32();
        crc.update(bytes);
        return where + length + " bytes, crc32 " + String.format("%08x", crc.getValue());
    }

    /** The 64-bit word at {@code offset}. */
    static long word(MemorySegment memory, long offset) {
        return memory.get(ValueLayout.JAVA_LONG_UNALIGNED, offset);
    }
}
