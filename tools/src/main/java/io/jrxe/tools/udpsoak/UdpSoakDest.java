package io.jrxe.tools.udpsoak;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * What the two sides trade over TCP before the soak: the GID, the number of QPs, and per QP its number, first PSN,
 * and the address and rkey of its region, as fixed-length text (a header line, then a line per QP).
 */
record UdpSoakDest(byte[] gid, int[] qpns, int[] psns, long base, int rkey) {
    static final int HEADER = 32 + 1 + 4 + 1 + 16 + 1 + 8 + 1;
    static final int PER_QP = 6 + 1 + 6 + 1;

    byte[] encode() {
        StringBuilder s = new StringBuilder(String.format("%s %04d %016x %08x%n", HexFormat.of().formatHex(gid),
                qpns.length, base, rkey));
        for (int i = 0; i < qpns.length; i++) {
            s.append(String.format("%06x %06x%n", qpns[i], psns[i]));
        }
        return s.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** The header's count of QPs. */
    static int qps(byte[] header) {
        return Integer.parseInt(new String(header, 33, 4, StandardCharsets.US_ASCII));
    }

    static UdpSoakDest decode(byte[] header, byte[] lines) {
        String h = new String(header, StandardCharsets.US_ASCII);
        int qps = qps(header);
        int[] qpns = new int[qps];
        int[] psns = new int[qps];
        for (int i = 0; i < qps; i++) {
            String line = new String(lines, i * PER_QP, PER_QP, StandardCharsets.US_ASCII);
            qpns[i] = Integer.parseInt(line.substring(0, 6), 16);
            psns[i] = Integer.parseInt(line.substring(7, 13), 16);
        }
        return new UdpSoakDest(HexFormat.of().parseHex(h.substring(0, 32)), qpns, psns,
                Long.parseUnsignedLong(h.substring(38, 54), 16), (int) Long.parseLong(h.substring(55, 63), 16));
    }
}
