package io.jrxe.tools.conformance;

import java.nio.charset.StandardCharsets;

/**
 * The R_Keys of a conformance target's restricted regions ({@link TargetLayout}), sent after the rc-ops line as one
 * more line of fixed length: {@code rckeys1 RO WO NONE OTHERPD DEAD WINDOW}, 8 hex digits each; WINDOW is 0 when the
 * target has no memory window.
 */
public record TargetKeys(int readOnly, int writeOnly, int noRemote, int otherPd, int dead, int window) {
    private static final String MAGIC = "rckeys1";
    public static final int LENGTH = MAGIC.length() + 6 * 9 + 1;

    public byte[] encode() {
        String line = String.format("%s %08x %08x %08x %08x %08x %08x\n", MAGIC, readOnly, writeOnly, noRemote, otherPd,
                dead, window);
        return line.getBytes(StandardCharsets.US_ASCII);
    }

    /** Parses the target's line; a line that is not one says what came instead. */
    public static TargetKeys decode(byte[] bytes) {
        String line = new String(bytes, StandardCharsets.US_ASCII).strip();
        String[] f = line.split(" ");
        if (f.length != 7 || !f[0].equals(MAGIC)) {
            throw new IllegalArgumentException("the target did not send its keys (it sent \""
                    + line.replaceAll("[^\\x20-\\x7e]", "?") + "\"): is it `jrxe rc-ops --many`?");
        }
        int[] k = new int[6];
        for (int i = 0; i < 6; i++) {
            k[i] = (int) Long.parseLong(f[i + 1], 16);
        }
        return new TargetKeys(k[0], k[1], k[2], k[3], k[4], k[5]);
    }
}
