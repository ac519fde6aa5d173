package io.jrxe.wire.port;

/**
 * The UDP source port a QP sends from, chosen as Linux's rxe chooses it (checked against the
 * golden captures): for a connected QP, from the flow label of its QPN and the peer's QPN
 * (multiply, fold the high bits down twice, keep 20 bits; then fold those into 14 bits above
 * 0xC000); for a UD QP, 49152 plus a 14-bit multiplicative hash of its QPN. Routers hash on it,
 * so distinct QPs spread over distinct paths.
 */
public final class RoceSourcePort {
    private static final int GOLDEN_RATIO_32 = 0x61C88647;
    private static final int MIN_PORT = 0xC000;

    private RoceSourcePort() {
    }

    /** RC and UC: from both QP numbers. */
    public static int connected(int localQpn, int remoteQpn) {
        long v = (long) localQpn * remoteQpn;
        v ^= v >>> 20;
        v ^= v >>> 40;
        return ofFlowLabel((int) (v & 0xFFFFF));
    }

    /**
     * From a 20-bit flow label. A connection RDMA CM set up carries its flow label in the REQ's
     * primary path, and both peers' QPs send from the port it gives (testdata/rxe-cm).
     */
    public static int ofFlowLabel(int flowLabel) {
        flowLabel &= 0xFFFFF;
        int low = flowLabel & 0x3FFF;
        int high = flowLabel & 0xFC000;
        low ^= high >>> 14;
        return low | MIN_PORT;
    }

    /** UD: from the QP's own number. */
    public static int datagram(int qpn) {
        return MIN_PORT + ((qpn * GOLDEN_RATIO_32) >>> (32 - 14));
    }
}
