package io.jrxe.verbs.emulated;

import io.jrxe.verbs.Errno;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.cm.PortSpace;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The ports the communication identifiers of this JVM hold, per port space, as a socket layer
 * keeps its ports: an identifier bound to an address conflicts with another on the same port and
 * the same address or on the wildcard. Port 0 takes a free port of the ephemeral range.
 */
final class CmPortTable {
    /** Linux's default ephemeral port range (net.ipv4.ip_local_port_range). */
    static final int EPHEMERAL_FIRST = 32768;
    static final int EPHEMERAL_LAST = 60999;

    private record Binding(Object owner, InetAddress address) {
    }

    private final Map<PortSpace, Map<Integer, List<Binding>>> ports = new EnumMap<>(PortSpace.class);

    /**
     * Binds {@code owner} to the port at {@code address} (null: every address) and returns the port.
     *
     * @throws VerbsException EADDRINUSE when the port is taken there, or no ephemeral port is free
     */
    synchronized int bind(Object owner, PortSpace space, InetAddress address, int port) throws VerbsException {
        Map<Integer, List<Binding>> table = ports.computeIfAbsent(space, s -> new HashMap<>());
        if (port == 0) {
            int span = EPHEMERAL_LAST - EPHEMERAL_FIRST + 1;
            int start = ThreadLocalRandom.current().nextInt(span);
            for (int i = 0; i < span && port == 0; i++) {
                int candidate = EPHEMERAL_FIRST + (start + i) % span;
                if (free(table.get(candidate), address)) {
                    port = candidate;
                }
            }
            if (port == 0) {
                throw new VerbsException(Errno.EADDRINUSE, "no free " + space + " port in "
                        + EPHEMERAL_FIRST + ".." + EPHEMERAL_LAST);
            }
        } else if (!free(table.get(port), address)) {
            throw new VerbsException(Errno.EADDRINUSE, space + " port " + port + " is taken"
                    + (address == null ? "" : " on " + address.getHostAddress()));
        }
        table.computeIfAbsent(port, p -> new ArrayList<>()).add(new Binding(owner, address));
        return port;
    }

    /** Frees whatever {@code owner} holds on {@code port}. */
    synchronized void release(Object owner, PortSpace space, int port) {
        Map<Integer, List<Binding>> table = ports.get(space);
        List<Binding> held = table == null ? null : table.get(port);
        if (held != null) {
            held.removeIf(b -> b.owner == owner);
            if (held.isEmpty()) {
                table.remove(port);
            }
        }
    }

    private static boolean free(List<Binding> held, InetAddress address) {
        if (held == null) {
            return true;
        }
        for (Binding b : held) {
            if (b.address == null || address == null || b.address.equals(address)) {
                return false;
            }
        }
        return true;
    }
}
