package io.jrxe.tools.analyze;

/** How many PSNs a READ's response takes: one per path-MTU packet of its length, at least one. */
final class Spans {
    /** The path MTUs a RoCE port may have. */
    static final int[] MTUS = {256, 512, 1024, 2048, 4096};

    private Spans() {
    }

    static int of(long length, int pmtu) {
        return (int) Math.max(1, (length + pmtu - 1) / pmtu);
    }

    /** Whether {@code pmtu} is one a RoCE port may have. */
    static boolean isMtu(int pmtu) {
        for (int m : MTUS) {
            if (m == pmtu) {
                return true;
            }
        }
        return false;
    }
}
