package io.jrxe.rnic;

import io.jrxe.rnic.memory.MemoryKey;
import io.jrxe.rnic.memory.OdpSettings;
import io.jrxe.verbs.DeviceAttributes;
import io.jrxe.wire.port.fault.FaultSpec;

import java.net.InetAddress;
import java.util.List;
import java.util.function.Consumer;

/**
 * What a device is made from: its name (jrxe0, ...), its addresses (the first one is the one it
 * sends from; each gives a GID), the MTU of the interface it sits on (the active path MTU
 * follows from it as in rxe), its attributes (what ibv_query_device reports), whether its RC
 * FLUSH packets carry the ICRC Linux's rxe computes for them instead of the IBTA's (rxe drops the
 * IBTA's; see the wire's IcrcCalculator.rxeFlush), and the capacity of its memory translation
 * table in 8-byte entries (jrxe's own: ibv_device_attr has no such field, so it is configuration,
 * not an attribute; {@link #DEFAULT_MTT_ENTRIES} unless set), and the faults its port does to its own packets on
 * real sockets (loss, duplication, reordering, delay, corruption, targeted rules: {@link FaultSpec}; none unless set),
 * on real UDP the port its socket is bound to and the port its packets go to (RoCEv2's 4791 both, unless two jrxe
 * devices share one address: {@link #withUdpPorts}), where its numbering starts: the first QP number it hands
 * out (rxe's 0x11 unless set) and the first MPT index of its L_Keys and R_Keys (1 unless set), whether what its UDP
 * port sends is ECN-capable, ECT(0) in the IP header (off unless set: kernel rxe's traffic is Not-ECT, and a peer of
 * it sees jrxe's packets as it sees rxe's), and the shortest time between two CNPs a QP sends back for packets that
 * arrived marked CE ({@link #DEFAULT_CNP_INTERVAL_NANOS} unless set), and its on-demand paging: whether it accepts
 * ON_DEMAND MRs, what its responder does when a peer's request reaches a page not brought in, what bringing one
 * in costs, and whether it has implicit ODP ({@link OdpSettings}; {@link OdpSettings#RXE} unless set). Two devices that start their numbering alike
 * give their first QPs and MRs the same numbers; a program that shows both sides (the demo) starts them apart, so
 * that a reader sees that a QPN or a key means something on one device only.
 */
public record DeviceConfig(String name, List<InetAddress> addresses, int interfaceMtu, DeviceAttributes attributes,
                           boolean rxeFlushIcrc, long mttEntries, FaultSpec faults, int udpPort, int peerUdpPort,
                           int firstQpn, int firstKeyIndex, boolean ecnCapable, long cnpIntervalNanos,
                           OdpSettings odp) {
    /** The MTT's default capacity: 2M entries, 16 MiB of translation memory, enough for 8 GiB of 4 KiB pages. */
    public static final long DEFAULT_MTT_ENTRIES = 2L * 1024 * 1024;
    /** RoCEv2's UDP port. */
    public static final int ROCE_PORT = io.jrxe.wire.port.PeerAddress.ROCE_PORT;
    /** A QP number is 24 bits wide. */
    public static final int MAX_QPN = 0xFFFFFF;
    /**
     * At most one CNP per QP every 50 us: the notification point's interval in the DCQCN paper (Zhu et al.,
     * SIGCOMM 2015), so that a burst of marked packets costs its sender one rate cut per interval, not one per packet.
     */
    public static final long DEFAULT_CNP_INTERVAL_NANOS = 50_000;

    public DeviceConfig {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a device needs a name");
        }
        if (addresses == null || addresses.isEmpty()) {
            throw new IllegalArgumentException("device " + name + " needs at least one address");
        }
        addresses = List.copyOf(addresses);
        faults = faults == null ? FaultSpec.NONE : faults;
        odp = odp == null ? OdpSettings.RXE : odp;
        if (udpPort < 1 || udpPort > 65_535 || peerUdpPort < 1 || peerUdpPort > 65_535) {
            throw new IllegalArgumentException("device " + name + ": UDP ports are 1 to 65535, not " + udpPort + " and "
                    + peerUdpPort);
        }
        if (firstQpn < NicResources.FIRST_QPN || firstQpn > MAX_QPN) {
            throw new IllegalArgumentException(String.format("device %s: the first QP number 0x%x is outside 0x%x..0x%x",
                    name, firstQpn, NicResources.FIRST_QPN, MAX_QPN));
        }
        if (firstKeyIndex < 1 || firstKeyIndex > MemoryKey.MAX_INDEX) {
            throw new IllegalArgumentException(String.format("device %s: the first key index %d is outside 1..%d",
                    name, firstKeyIndex, MemoryKey.MAX_INDEX));
        }
        if (cnpIntervalNanos < 0) {
            throw new IllegalArgumentException("device " + name + ": a CNP interval of " + cnpIntervalNanos + " ns");
        }
    }

    /** A device on RoCEv2's port, numbered as rxe numbers (QPs from 0x11, key indexes from 1), Not-ECT. */
    public DeviceConfig(String name, List<InetAddress> addresses, int interfaceMtu, DeviceAttributes attributes,
                        boolean rxeFlushIcrc, long mttEntries, FaultSpec faults) {
        this(name, addresses, interfaceMtu, attributes, rxeFlushIcrc, mttEntries, faults, ROCE_PORT, ROCE_PORT,
                NicResources.FIRST_QPN, 1, false, DEFAULT_CNP_INTERVAL_NANOS, OdpSettings.RXE);
    }

    public DeviceConfig(String name, List<InetAddress> addresses, int interfaceMtu, DeviceAttributes attributes) {
        this(name, addresses, interfaceMtu, attributes, false, DEFAULT_MTT_ENTRIES, FaultSpec.NONE);
    }

    public static DeviceConfig of(String name, InetAddress address) {
        return new DeviceConfig(name, List.of(address), 1500, DeviceAttributes.rxeDefaults());
    }

    public DeviceConfig withInterfaceMtu(int mtu) {
        return with(d -> d.interfaceMtu = mtu);
    }

    public DeviceConfig withAttributes(DeviceAttributes a) {
        return with(d -> d.attributes = a);
    }

    public DeviceConfig withRxeFlushIcrc(boolean asRxe) {
        return with(d -> d.rxeFlushIcrc = asRxe);
    }

    /** The same device with an MTT of {@code entries} 8-byte entries. */
    public DeviceConfig withMttEntries(long entries) {
        return with(d -> d.mttEntries = entries);
    }

    /**
     * The same device with its port doing {@code spec}'s faults to the packets it sends and receives on real UDP
     * ({@link FaultSpec#parse} reads them from text); {@link FaultSpec#NONE} for none.
     */
    public DeviceConfig withFaults(FaultSpec spec) {
        return with(d -> d.faults = spec);
    }

    /**
     * The same device bound to UDP port {@code udpPort} and sending to port {@code peerUdpPort} of its peers' addresses:
     * how two jrxe devices on one address reach each other (each bound to the port the other sends to). A GID names
     * no port, so such a device is reachable by jrxe devices so configured and by nothing else, and it cannot reach
     * itself: a QP connected to the device's own GID reaches the peer (so its warm-up is skipped).
     */
    public DeviceConfig withUdpPorts(int udpPort, int peerUdpPort) {
        return with(d -> {
            d.udpPort = udpPort;
            d.peerUdpPort = peerUdpPort;
        });
    }

    /** Whether the device is bound to, and sends to, RoCEv2's port 4791. */
    public boolean onRocePort() {
        return udpPort == ROCE_PORT && peerUdpPort == ROCE_PORT;
    }

    /**
     * The same device handing out QP numbers from {@code qpn} on and key indexes from {@code keyIndex} on (a key is
     * its index times 256 plus a variant byte).
     */
    public DeviceConfig withFirstNumbers(int qpn, int keyIndex) {
        return with(d -> {
            d.firstQpn = qpn;
            d.firstKeyIndex = keyIndex;
        });
    }

    /** The same device with its packets on real sockets ECN-capable, ECT(0), or not (see RoceUdpPort#ecnCapable). */
    public DeviceConfig withEcnCapable(boolean capable) {
        return with(d -> d.ecnCapable = capable);
    }

    /** The same device with its QPs sending at most one CNP every {@code nanos} (0: one per CE-marked packet). */
    public DeviceConfig withCnpInterval(long nanos) {
        return with(d -> d.cnpIntervalNanos = nanos);
    }

    /** The same device with these on-demand paging settings ({@link OdpSettings#DISABLED}: it refuses ON_DEMAND MRs). */
    public DeviceConfig withOdp(OdpSettings settings) {
        return with(d -> d.odp = settings);
    }

    /**
     * The same device with implicit on-demand paging on or off (off unless set, as kernel rxe, which has none): one
     * ON_DEMAND MR over the whole address space, and ODP_SUPPORT_IMPLICIT in its caps. On needs ODP enabled.
     */
    public DeviceConfig withImplicitOdp(boolean on) {
        return with(d -> d.odp = d.odp.withImplicit(on));
    }

    /** This config with {@code change} made to a copy of its components. */
    private DeviceConfig with(Consumer<Draft> change) {
        Draft draft = new Draft(this);
        change.accept(draft);
        return draft.config();
    }

    /** A config's components while a with-method changes some: the one place that lists them all for a copy. */
    private static final class Draft {
        private final String name;
        private final List<InetAddress> addresses;
        int interfaceMtu;
        DeviceAttributes attributes;
        boolean rxeFlushIcrc;
        long mttEntries;
        FaultSpec faults;
        int udpPort;
        int peerUdpPort;
        int firstQpn;
        int firstKeyIndex;
        boolean ecnCapable;
        long cnpIntervalNanos;
        OdpSettings odp;

        Draft(DeviceConfig c) {
            name = c.name;
            addresses = c.addresses;
            interfaceMtu = c.interfaceMtu;
            attributes = c.attributes;
            rxeFlushIcrc = c.rxeFlushIcrc;
            mttEntries = c.mttEntries;
            faults = c.faults;
            udpPort = c.udpPort;
            peerUdpPort = c.peerUdpPort;
            firstQpn = c.firstQpn;
            firstKeyIndex = c.firstKeyIndex;
            ecnCapable = c.ecnCapable;
            cnpIntervalNanos = c.cnpIntervalNanos;
            odp = c.odp;
        }

        DeviceConfig config() {
            return new DeviceConfig(name, addresses, interfaceMtu, attributes, rxeFlushIcrc, mttEntries, faults, udpPort,
                    peerUdpPort, firstQpn, firstKeyIndex, ecnCapable, cnpIntervalNanos, odp);
        }
    }
}
