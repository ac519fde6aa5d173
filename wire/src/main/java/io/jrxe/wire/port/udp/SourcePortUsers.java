package io.jrxe.wire.port.udp;

import java.util.HashMap;
import java.util.Map;

/**
 * How many QPs send from each UDP source port, so that a port's socket is closed when its last QP goes. Control
 * path only (a QP entering RTR, reset or destroyed), on the NIC thread.
 */
final class SourcePortUsers {
    private final Map<Integer, Integer> users = new HashMap<>();

    /** One more QP sends from {@code srcPort}. */
    void add(int srcPort) {
        users.merge(srcPort, 1, Integer::sum);
    }

    /** One QP fewer sends from {@code srcPort}: true when it was the last (false for a port nobody added). */
    boolean remove(int srcPort) {
        Integer n = users.get(srcPort);
        if (n == null) {
            return false;
        }
        if (n == 1) {
            users.remove(srcPort);
            return true;
        }
        users.put(srcPort, n - 1);
        return false;
    }
}
