package io.jrxe.rnic;

import io.jrxe.verbs.DeviceAttributes;
import io.jrxe.wire.port.fault.FaultSpec;

import java.net.InetAddress;
import java.util.List;

/**
 * What a device is made from: its name (jrxe0, ...), its addresses (the first one is the one it
 * sends from; each gives a GID), the MTU of the interface it sits on (the active path MTU
 * follows from it as in rxe), its attributes (what ibv_query_device reports), whether its RC
 * FLUSH packets carry the ICRC Linux's rxe computes for them instead of the IBTA's (rxe drops the
 * IBTA's; see the wire's IcrcCalculator.rxeFlush), and the capacity of its memory translation
 * table in 8-byte entries (jrxe's own: ibv_device_attr has no such field, so it is configuration,
 * not an attribute; {@link #DEFAULT_MTT_ENTRIES} unless set), and the faults its port does to its own packets on
 * real sockets (loss, duplication, reordering, delay, corruption, targeted rules: {@link FaultSpec}; none unless set),
 * and whether what its UDP port sends is ECN-capable, ECT(0) in the IP header (off unless set: kernel rxe's
 * traffic is Not-ECT, and a peer of it sees jrxe's packets as it sees rxe's), and the shortest time between two
 * CNPs a QP sends back for packets that arrived marked CE ({@link #DEFAULT_CNP_INTERVAL_NANOS} unless set).
 */
public record DeviceConfig(String name, List<InetAddress> addresses, int interfaceMtu, DeviceAttributes attributes,
                           boolean rxeFlushIcrc, long mttEntries, FaultSpec faults, boolean ecnCapable,
                           long cnpIntervalNanos) {
    /** The MTT's default capacity: 2M entries, 16 MiB of translation memory, enough for 8 GiB of 4 KiB pages. */
    public static final long DEFAULT_MTT_ENTRIES = 2L * 1024 * 1024;
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
        if (cnpIntervalNanos < 0) {
            throw new IllegalArgumentException("device " + name + ": a CNP interval of " + cnpIntervalNanos + " ns");
        }
    }

    public DeviceConfig(String name, List<InetAddress> addresses, int interfaceMtu, DeviceAttributes attributes) {
        this(name, addresses, interfaceMtu, attributes, false, DEFAULT_MTT_ENTRIES, FaultSpec.NONE, false, DEFAULT_CNP_INTERVAL_NANOS);
    }

    public static DeviceConfig of(String name, InetAddress address) {
        return new DeviceConfig(name, List.of(address), 1500, DeviceAttributes.rxeDefaults());
    }

    public DeviceConfig withInterfaceMtu(int mtu) {
        return new DeviceConfig(name, addresses, mtu, attributes, rxeFlushIcrc, mttEntries, faults, ecnCapable, cnpIntervalNanos);
    }

    public DeviceConfig withAttributes(DeviceAttributes a) {
        return new DeviceConfig(name, addresses, interfaceMtu, a, rxeFlushIcrc, mttEntries, faults, ecnCapable, cnpIntervalNanos);
    }

    public DeviceConfig withRxeFlushIcrc(boolean asRxe) {
        return new DeviceConfig(name, addresses, interfaceMtu, attributes, asRxe, mttEntries, faults, ecnCapable, cnpIntervalNanos);
    }

    /** The same device with an MTT of {@code entries} 8-byte entries. */
    public DeviceConfig withMttEntries(long entries) {
        return new DeviceConfig(name, addresses, interfaceMtu, attributes, rxeFlushIcrc, entries, faults, ecnCapable, cnpIntervalNanos);
    }

    /**
     * The same device with its port doing {@code spec}'s faults to the packets it sends and receives on real UDP
     * ({@link FaultSpec#parse} reads them from text); {@link FaultSpec#NONE} for none.
     */
    public DeviceConfig withFaults(FaultSpec spec) {
        return new DeviceConfig(name, addresses, interfaceMtu, attributes, rxeFlushIcrc, mttEntries, spec, ecnCapable, cnpIntervalNanos);
    }

    /** The same device with its packets on real sockets ECN-capable, ECT(0), or not (see RoceUdpPort#ecnCapable). */
    public DeviceConfig withEcnCapable(boolean capable) {
        return new DeviceConfig(name, addresses, interfaceMtu, attributes, rxeFlushIcrc, mttEntries, faults, capable, cnpIntervalNanos);
    }

    /** The same device with its QPs sending at most one CNP every {@code nanos} (0: one per CE-marked packet). */
    public DeviceConfig withCnpInterval(long nanos) {
        return new DeviceConfig(name, addresses, interfaceMtu, attributes, rxeFlushIcrc, mttEntries, faults, ecnCapable, nanos);
    }
}
