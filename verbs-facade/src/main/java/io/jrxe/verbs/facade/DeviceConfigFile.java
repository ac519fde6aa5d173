package io.jrxe.verbs.facade;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.cc.CongestionControlChoice;
import io.jrxe.rnic.memory.OdpSettings;
import io.jrxe.rnic.memory.RemoteFaultPolicy;
import io.jrxe.verbs.DeviceAttributes;
import io.jrxe.wire.port.fault.FaultSpec;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Devices described in a small text file, one `device.key = value` per line (# starts a
 * comment):
 * <pre>
 * jrxe0.addr = 127.0.0.1        # required; more addresses: addr2, addr3 (each gives GIDs)
 * jrxe0.mtu = 1500              # the interface MTU; the active path MTU follows as in rxe
 * jrxe0.max_qp = 16             # any limit: max_qp, max_mr, max_cq, max_cqe, max_pd,
 * jrxe0.mtt_entries = 4096      #   max_qp_wr, max_sge, max_srq, max_mw, max_ah, mtt_entries,
 * jrxe0.max_mcast_grp = 2       #   max_mcast_grp, max_mcast_qp_attach, max_total_mcast_qp_attach
 * jrxe0.faults = loss=0.01,seed=7  # faults its port does to its packets on real UDP (FaultSpec's grammar)
 * jrxe0.ecn_capable = true     # its packets on real UDP say ECT(0) in the IP header (false unless set)
 * jrxe0.cnp_interval_us = 50    # at most one CNP per QP this often, for packets that arrive marked CE
 * jrxe0.congestion_control = timely  # none (the default), dcqcn or timely, settings after a colon:
 *                                    #   dcqcn:profile=connectx,ai=10M (docs/congestion.md)
 * jrxe0.odp = rnr_nak           # on-demand paging: in_line (rxe's, the default), rnr_nak or off (docs/odp.md)
 * jrxe0.odp_fault_cost_ns = 5000  # what bringing one page of an ON_DEMAND MR in costs the NIC
 * jrxe0.odp_implicit = on       # implicit ODP, one ON_DEMAND MR over the whole address space: on or off (the default)
 * </pre>
 * The limits are the device's attributes (what ibv_query_device reports), but for mtt_entries, the size of its
 * memory translation table, which is the emulated device's own configuration ({@link DeviceConfig#mttEntries()}).
 * The congestion control is not part of {@link DeviceConfig}: {@link #loadDevices} gives it beside each
 * configuration, with the {@link io.jrxe.rnic.NicContext} to make the NIC from. Every mistake is reported with
 * its line number.
 */
public final class DeviceConfigFile {
    private DeviceConfigFile() {
    }

    /** The devices' configurations (their congestion control, when the file names one, is in {@link #loadDevices}). */
    public static List<DeviceConfig> load(Path file) throws IOException {
        return loadDevices(file).stream().map(ConfiguredDevice::config).toList();
    }

    /** The devices of the file, each with its congestion control. */
    public static List<ConfiguredDevice> loadDevices(Path file) throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("no such device configuration file: " + file);
        }
        Map<String, Map<String, String>> devices = new LinkedHashMap<>();
        Map<String, Integer> lineOf = new LinkedHashMap<>();
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n);
            int hash = line.indexOf('#');
            if (hash >= 0) {
                line = line.substring(0, hash);
            }
            line = line.strip();
            if (line.isEmpty()) {
                continue;
            }
            int eq = line.indexOf('=');
            int dot = line.indexOf('.');
            if (eq < 0 || dot < 0 || dot > eq) {
                throw new IllegalArgumentException(file + ":" + (n + 1) + ": expected `device.key = value`, found `" + line + "`");
            }
            String device = line.substring(0, dot).strip();
            String key = line.substring(dot + 1, eq).strip();
            devices.computeIfAbsent(device, d -> new LinkedHashMap<>()).put(key, line.substring(eq + 1).strip());
            lineOf.put(device + "." + key, n + 1);
        }
        List<ConfiguredDevice> configs = new ArrayList<>();
        for (Map.Entry<String, Map<String, String>> d : devices.entrySet()) {
            configs.add(toConfig(file, d.getKey(), d.getValue(), lineOf));
        }
        return configs;
    }

    private static ConfiguredDevice toConfig(Path file, String name, Map<String, String> keys, Map<String, Integer> lineOf) {
        List<InetAddress> addresses = new ArrayList<>();
        int mtu = 1500;
        long mttEntries = DeviceConfig.DEFAULT_MTT_ENTRIES;
        FaultSpec faults = FaultSpec.NONE;
        boolean ecnCapable = false;
        long cnpIntervalNanos = DeviceConfig.DEFAULT_CNP_INTERVAL_NANOS;
        String congestionControl = "none";
        OdpSettings odp = OdpSettings.RXE;
        boolean odpImplicit = false;
        DeviceAttributes.Builder a = DeviceAttributes.builder();
        for (Map.Entry<String, String> kv : keys.entrySet()) {
            String key = kv.getKey();
            String value = kv.getValue();
            String where = file + ":" + lineOf.get(name + "." + key) + ": " + name + "." + key;
            try {
                switch (key) {
                    case "addr", "addr2", "addr3", "addr4" -> addresses.add(InetAddress.getByName(value));
                    case "mtu" -> mtu = Integer.parseInt(value);
                    case "max_qp" -> a.maxQp(Integer.parseInt(value));
                    case "max_qp_wr" -> a.maxQpWr(Integer.parseInt(value));
                    case "max_sge" -> a.maxSge(Integer.parseInt(value));
                    case "max_mr" -> a.maxMr(Integer.parseInt(value));
                    case "max_cq" -> a.maxCq(Integer.parseInt(value));
                    case "max_cqe" -> a.maxCqe(Integer.parseInt(value));
                    case "max_pd" -> a.maxPd(Integer.parseInt(value));
                    case "max_srq" -> a.maxSrq(Integer.parseInt(value));
                    case "max_mw" -> a.maxMw(Integer.parseInt(value));
                    case "max_ah" -> a.maxAh(Integer.parseInt(value));
                    case "max_mcast_grp" -> a.maxMcastGrp(Integer.parseInt(value));
                    case "max_mcast_qp_attach" -> a.maxMcastQpAttach(Integer.parseInt(value));
                    case "max_total_mcast_qp_attach" -> a.maxTotalMcastQpAttach(Integer.parseInt(value));
                    case "mtt_entries" -> mttEntries = Long.parseLong(value);
                    case "faults" -> faults = faults(value, where);
                    case "ecn_capable" -> ecnCapable = switch (value) {
                        case "true" -> true;
                        case "false" -> false;
                        default -> throw new IllegalArgumentException(where + ": true or false, not " + value);
                    };
                    case "cnp_interval_us" -> cnpIntervalNanos = Math.multiplyExact(Long.parseLong(value), 1_000L);
                    case "congestion_control" -> congestionControl = congestionControl(value, where);
                    case "odp" -> odp = switch (value) {
                        case "in_line" -> new OdpSettings(true, RemoteFaultPolicy.RESOLVE_IN_LINE, odp.faultCostNanos());
                        case "rnr_nak" -> new OdpSettings(true, RemoteFaultPolicy.RNR_NAK, odp.faultCostNanos());
                        case "off" -> new OdpSettings(false, odp.remoteFaults(), odp.faultCostNanos());
                        default -> throw new IllegalArgumentException(where + ": in_line, rnr_nak or off, not " + value);
                    };
                    case "odp_fault_cost_ns" -> {
                        long nanos = Long.parseLong(value);
                        if (nanos < 0) {
                            throw new IllegalArgumentException(where + ": a cost of 0 ns or more, not " + value);
                        }
                        odp = odp.withFaultCost(nanos);
                    }
                    case "odp_implicit" -> odpImplicit = switch (value) {
                        case "on" -> true;
                        case "off" -> false;
                        default -> throw new IllegalArgumentException(where + ": on or off, not " + value);
                    };
                    default -> throw new IllegalArgumentException(where + ": unknown key (addr, mtu, max_qp, max_qp_wr, "
                            + "max_sge, max_mr, max_cq, max_cqe, max_pd, max_srq, max_mw, max_ah, mtt_entries, max_mcast_grp, "
                            + "max_mcast_qp_attach, max_total_mcast_qp_attach, faults, ecn_capable, cnp_interval_us, "
                            + "congestion_control, odp, odp_fault_cost_ns, odp_implicit)");
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(where + ": not a number: " + value);
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException(where + ": not an IP address: " + value);
            }
        }
        if (addresses.isEmpty()) {
            throw new IllegalArgumentException(file + ": device " + name + " has no " + name + ".addr");
        }
        if (odpImplicit && !odp.enabled()) {
            throw new IllegalArgumentException(file + ":" + lineOf.get(name + ".odp_implicit") + ": " + name
                    + ".odp_implicit: on needs on-demand paging, but " + name + ".odp is off");
        }
        odp = odp.withImplicit(odpImplicit);
        return new ConfiguredDevice(new DeviceConfig(name, addresses, mtu, a.build()).withMttEntries(mttEntries)
                .withFaults(faults).withEcnCapable(ecnCapable).withCnpInterval(cnpIntervalNanos).withOdp(odp),
                congestionControl);
    }

    /** The name, once a part has it; a one-line error with the names there are when none has. */
    private static String congestionControl(String value, String where) {
        try {
            CongestionControlChoice.named(value);
            return value;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage());
        }
    }

    private static FaultSpec faults(String value, String where) {
        try {
            return FaultSpec.parse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage());
        }
    }
}
