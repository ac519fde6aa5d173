package io.jrxe.tools.compare;

import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.VerbsException;

import java.lang.foreign.Arena;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One setup of a comparison: two nodes (A, the requester, and B) on one device or two, where their packets are
 * seen, and how to release it all. Everything a step does goes through the verbs API, so a setup of jrxe NICs and
 * one of a kernel device run the same code.
 */
final class Rig implements AutoCloseable {
    final String column;
    final String description;
    final Node a;
    final Node b;
    private final List<Context> contexts;
    private final Mtu activeMtu;
    private final PacketSource packets;
    private final Arena arena;
    private final Runnable release;

    Rig(String column, String description, Node a, Node b, List<Context> contexts, Mtu activeMtu, PacketSource packets,
        Arena arena, Runnable release) {
        this.column = column;
        this.description = description;
        this.a = a;
        this.b = b;
        this.contexts = contexts;
        this.activeMtu = activeMtu;
        this.packets = packets;
        this.arena = arena;
        this.release = release;
    }

    /** The port's active MTU (the smaller of the two devices'). */
    Mtu activeMtu() {
        return activeMtu;
    }

    PacketSource packets() {
        return packets;
    }

    /** The counters of the setup's devices, added up by name (A and B share one device on a kernel setup). */
    Map<String, Long> counters() {
        Map<String, Long> sum = new TreeMap<>();
        for (Context c : contexts) {
            try {
                c.counters().forEach((k, v) -> sum.merge(k, v, Long::sum));
            } catch (VerbsException e) {
                // a device without counters adds none
            }
        }
        return sum;
    }

    @Override
    public void close() {
        packets.close();
        a.close();
        b.close();
        for (Context c : contexts) {
            try {
                c.close();
            } catch (VerbsException e) {
                // the device goes next
            }
        }
        arena.close();
        release.run();
    }
}
