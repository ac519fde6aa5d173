package io.jrxe.wire.capture;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A deliberately small pcapng parser for tests, written from the format's description and not
 * from {@link PcapngWriter}, so that the two cannot share a mistake. It checks the framing every
 * block must obey and fails with the offset of the first violation.
 */
final class PcapngBlocks {
    record Block(int offset, int type, int totalLength, ByteBuffer body) {
    }

    private PcapngBlocks() {
    }

    /** Splits a little-endian pcapng file into blocks; {@code body} excludes type and both length fields. */
    static List<Block> parse(byte[] file) {
        ByteBuffer in = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        List<Block> blocks = new ArrayList<>();
        int offset = 0;
        while (offset < file.length) {
            require(file.length - offset >= 12, offset, "fewer than 12 bytes left for a block");
            int type = in.getInt(offset);
            int totalLength = in.getInt(offset + 4);
            require(totalLength >= 12, offset, "total length " + totalLength + " is below 12");
            require(totalLength % 4 == 0, offset, "total length " + totalLength + " is not a multiple of 4");
            require(offset + totalLength <= file.length, offset, "block runs past the end of the file");
            int trailing = in.getInt(offset + totalLength - 4);
            require(trailing == totalLength, offset, "trailing length " + trailing + " differs from " + totalLength);
            ByteBuffer body = ByteBuffer.wrap(file, offset + 8, totalLength - 12).slice().order(ByteOrder.LITTLE_ENDIAN);
            blocks.add(new Block(offset, type, totalLength, body));
            offset += totalLength;
        }
        return blocks;
    }

    /**
     * Options from {@code from} in a block body up to opt_endofopt: code to value. Checks that
     * each value is padded to 32 bits and that the list ends exactly at the end of the body.
     */
    static Map<Integer, byte[]> options(ByteBuffer body, int from) {
        Map<Integer, byte[]> options = new LinkedHashMap<>();
        int at = from;
        while (true) {
            require(body.limit() - at >= 4, at, "option list does not end with opt_endofopt");
            int code = Short.toUnsignedInt(body.getShort(at));
            int length = Short.toUnsignedInt(body.getShort(at + 2));
            if (code == 0) {
                require(length == 0, at, "opt_endofopt has length " + length);
                require(at + 4 == body.limit(), at, "bytes after opt_endofopt");
                return options;
            }
            int padded = (length + 3) & ~3;
            require(at + 4 + padded <= body.limit(), at, "option " + code + " runs past its block");
            byte[] value = Arrays.copyOfRange(body.array(), body.arrayOffset() + at + 4, body.arrayOffset() + at + 4 + length);
            for (int i = length; i < padded; i++) {
                require(body.get(at + 4 + i) == 0, at, "option " + code + " padding is not zero");
            }
            options.put(code, value);
            at += 4 + padded;
        }
    }

    static String utf8(byte[] value) {
        return new String(value, StandardCharsets.UTF_8);
    }

    private static void require(boolean condition, int offset, String problem) {
        if (!condition) {
            throw new AssertionError("pcapng violation at offset " + offset + ": " + problem);
        }
    }
}
