package io.jrxe.rnic.device;

import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.GidType;
import io.jrxe.verbs.Mtu;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The device's one port: always ACTIVE with an Ethernet link layer, max MTU 4096, the active
 * MTU derived from the interface MTU like rxe's, a GID table and a P_Key table holding 0xFFFF.
 * The GID table has, for each of the device's addresses in order, a RoCE v1 entry and then a
 * RoCE v2 entry; the RoCE v2 entry of the first address is the device's default GID.
 */
public final class Port {
    public static final int NUMBER = 1;
    public static final int DEFAULT_PKEY = 0xFFFF;
    /** The largest message, as rxe's port reports it (max_msg_sz 0x800000). */
    public static final long MAX_MESSAGE_SIZE = 0x800000;

    public enum State { DOWN, INIT, ARMED, ACTIVE }

    private final int interfaceMtu;
    private final Mtu activeMtu;
    private final List<GidEntry> gids;
    private final int[] pkeys = {DEFAULT_PKEY};

    public Port(int interfaceMtu, List<InetAddress> addresses) {
        if (addresses.isEmpty()) {
            throw new IllegalArgumentException("a port needs at least one address");
        }
        this.interfaceMtu = interfaceMtu;
        this.activeMtu = Mtu.fromInterfaceMtu(interfaceMtu);
        List<GidEntry> table = new ArrayList<>();
        for (InetAddress a : addresses) {
            byte[] gid = GidEntry.gidOf(a);
            table.add(new GidEntry(table.size(), gid, GidType.ROCE_V1));
            table.add(new GidEntry(table.size(), gid, GidType.ROCE_V2));
        }
        this.gids = List.copyOf(table);
    }

    public State state() {
        return State.ACTIVE;
    }

    public String linkLayer() {
        return "Ethernet";
    }

    public Mtu maxMtu() {
        return Mtu.MTU_4096;
    }

    public Mtu activeMtu() {
        return activeMtu;
    }

    public int interfaceMtu() {
        return interfaceMtu;
    }

    public List<GidEntry> gids() {
        return gids;
    }

    public GidEntry gid(int index) {
        if (index < 0 || index >= gids.size()) {
            throw new IllegalArgumentException("GID index " + index + " is out of range: port 1 has " + gids.size()
                    + " GIDs (0.." + (gids.size() - 1) + ")");
        }
        return gids.get(index);
    }

    /** Index of the RoCE v2 GID of the first address. */
    public int defaultGidIndex() {
        return 1;
    }

    public int pkeyTableLength() {
        return pkeys.length;
    }

    public int pkey(int index) {
        if (index < 0 || index >= pkeys.length) {
            throw new IllegalArgumentException("P_Key index " + index + " is out of range: the table holds " + pkeys.length);
        }
        return pkeys[index];
    }
}
