package io.jrxe.tools.devinfo;

import io.jrxe.tools.BadOption;
import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicExecutor;
import io.jrxe.verbs.DeviceAttributes;
import io.jrxe.verbs.OdpCapabilities;
import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.GidType;
import io.jrxe.verbs.Mtu;
import io.jrxe.rnic.device.Port;
import io.jrxe.tools.UserError;
import io.jrxe.tools.common.DeviceOptions;
import io.jrxe.tools.common.Gids;
import io.jrxe.tools.common.ProviderChoice;
import io.jrxe.tools.common.TransmitNotice;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Device;
import io.jrxe.verbs.PortInfo;
import io.jrxe.verbs.facade.Verbs;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.verbs.emulated.EmulatedExtension;
import io.jrxe.wire.capture.CaptureException;
import io.jrxe.wire.capture.PcapngWriter;
import io.jrxe.wire.framing.LinkType;
import io.jrxe.wire.port.raw.RawSocketOpener;
import io.jrxe.wire.port.raw.TransmitPath;
import io.jrxe.wire.port.udp.UdpTransport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * `jrxe devinfo`: what ibv_devinfo prints, for the jrxe device that --addr and -d describe, in ibv_devinfo's
 * layout (so scripts that read ibv_devinfo read this); -v adds the capabilities, the GID table, and after
 * the port a jrxe section with the UDP transport, the transmit path and the counters. This device binds no
 * socket: the transmit path is what a device on --addr would use in this process, found by opening a raw
 * socket and closing it; the warning a device prints at start-up goes to stderr here too. When -d names a
 * kernel device (rxe0), that one is shown, through the native provider (its capability flags are rxe's, as
 * jrxe's are).
 */
@Command(name = "devinfo", mixinStandardHelpOptions = true,
        description = "Print a jrxe device's attributes as ibv_devinfo does: the device, its port, and with -v its "
                + "capabilities, GID table, UDP transport and counters.")
public final class DevinfoCommand implements Callable<Integer> {
    /** rxe's device_cap_flags without the memory-window bits, which follow the device's attributes. */
    static final int RXE_CAP_FLAGS = 0x2 | 0x4 | 0x10 | 0x20 | 0x40 | 0x400 | 0x800 | 0x1000 | 0x2000 | 0x200000;
    static final int MEM_WINDOW = 1 << 17;
    static final int MEM_WINDOW_TYPE_2B = 1 << 24;
    /** IBV_PORT_CM_SUP: what rxe's port reports. */
    static final int PORT_CAP_FLAGS = 1 << 16;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    DeviceOptions device;

    @Option(names = {"-i", "--ib-port"}, paramLabel = "PORT", description = "print port PORT only (default: all ports)")
    Integer ibPort;

    @Option(names = {"-l", "--list"}, description = "print only the device names")
    boolean list;

    @Option(names = {"-v", "--verbose"}, description = "print all the attributes, the GID table, the UDP transport, the IPv4 transmit path and the counters")
    boolean verbose;

    @Override
    public Integer call() {
        if (ibPort != null && ibPort <= 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "-i/--ib-port " + ibPort + ": ports are numbered from 1");
        }
        PrintWriter out = spec.commandLine().getOut();
        if (device.choice() instanceof ProviderChoice.Native kernel) {
            device.checkNative(kernel.name());
            return printNative(out, kernel.device());
        }
        DeviceConfig config = DeviceConfig.of(device.deviceName(), device.address()).withInterfaceMtu(device.interfaceMtu())
                .withOdp(device.odp());
        EmulatedDevice dev;
        try {
            dev = Verbs.emulated().create(config, NicExecutor.INLINE);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage(), e);
        }
        try {
            writeEmptyCapture();
            if (list) {
                out.printf("1 HCA found:%n\t%s%n%n", dev.name());
                return 0;
            }
            if (ibPort != null && ibPort > 1) {
                throw new BadOption("-i/--ib-port " + ibPort + ": Invalid port requested for device: " + dev.name() + " has 1 port");
            }
            TransmitPath transmit = TransmitPath.probe(device.address() instanceof java.net.Inet6Address,
                    RawSocketOpener.system());
            TransmitNotice.warnIfUnverifiable(dev.name(), transmit, spec.commandLine().getErr());
            print(out, dev, dev.open(), transmit);
            out.flush();
            return 0;
        } catch (io.jrxe.verbs.VerbsException e) {
            throw new UserError(e.getMessage(), e);
        } finally {
            Verbs.emulated().remove(dev);
        }
    }

    private int printNative(PrintWriter out, Device dev) {
        if (list) {
            out.printf("1 HCA found:%n\t%s%n%n", dev.name());
            return 0;
        }
        try (Context ctx = dev.open()) {
            print(out, dev, ctx, null);
            out.flush();
            return 0;
        } catch (io.jrxe.verbs.VerbsException e) {
            throw new UserError(e.getMessage(), e);
        }
    }

    /** A device with no network sends nothing; --capture still leaves a valid (empty) capture behind. */
    private void writeEmptyCapture() {
        if (device.capture() == null) {
            return;
        }
        try (PcapngWriter w = new PcapngWriter(device.capture())) {
            w.addInterface(device.deviceName(), LinkType.ETHERNET, 0);
        } catch (CaptureException e) {
            throw new UserError(e.getMessage(), e);
        }
    }

    /** @param transmit the IPv4 transmit path of an emulated device; null for a native one */
    private void print(PrintWriter out, Device dev, Context ctx, TransmitPath transmit)
            throws io.jrxe.verbs.VerbsException {
        DeviceAttributes a = ctx.queryDevice();
        out.printf("hca_id:\t%s%n", dev.name());
        out.printf("\ttransport:\t\t\t%s (%d)%n", "InfiniBand", 0);
        if (!a.firmwareVersion().isEmpty()) {
            out.printf("\tfw_ver:\t\t\t\t%s%n", a.firmwareVersion());
        }
        out.printf("\tnode_guid:\t\t\t%s%n", guid(dev.guid()));
        out.printf("\tsys_image_guid:\t\t\t%s%n", guid(dev.guid()));
        out.printf("\tvendor_id:\t\t\t0x%04x%n", a.vendorId());
        out.printf("\tvendor_part_id:\t\t\t%d%n", a.vendorPartId());
        out.printf("\thw_ver:\t\t\t\t0x%X%n", a.hardwareVersion());
        out.printf("\tphys_port_cnt:\t\t\t%d%n", 1);
        if (verbose) {
            printCapabilities(out, a);
        }
        PortInfo p = ctx.queryPort(Port.NUMBER);
        out.printf("\t\tport:\t%d%n", Port.NUMBER);
        out.printf("\t\t\tstate:\t\t\t%s (%d)%n", "PORT_" + p.state(), portState(p.state()));
        out.printf("\t\t\tmax_mtu:\t\t%s%n", mtu(p.maxMtu()));
        out.printf("\t\t\tactive_mtu:\t\t%s%n", mtu(p.activeMtu()));
        out.printf("\t\t\tsm_lid:\t\t\t%d%n", 0);
        out.printf("\t\t\tport_lid:\t\t%d%n", 0);
        out.printf("\t\t\tport_lmc:\t\t0x%02x%n", 0);
        out.printf("\t\t\tlink_layer:\t\t%s%n", p.linkLayer());
        if (verbose) {
            out.printf("\t\t\tmax_msg_sz:\t\t0x%x%n", Port.MAX_MESSAGE_SIZE);
            out.printf("\t\t\tport_cap_flags:\t\t0x%08x%n", PORT_CAP_FLAGS);
            out.printf("\t\t\tport_cap_flags2:\t0x%04x%n", 0);
            out.printf("\t\t\tmax_vl_num:\t\t%s (%d)%n", "1", 1);
            out.printf("\t\t\tbad_pkey_cntr:\t\t0x%x%n", 0);
            out.printf("\t\t\tqkey_viol_cntr:\t\t0x%x%n", 0);
            out.printf("\t\t\tsm_sl:\t\t\t%d%n", 0);
            out.printf("\t\t\tpkey_tbl_len:\t\t%d%n", p.pkeyTableLength());
            out.printf("\t\t\tgid_tbl_len:\t\t%d%n", p.gidTableLength());
            out.printf("\t\t\tsubnet_timeout:\t\t%d%n", 0);
            out.printf("\t\t\tinit_type_reply:\t%d%n", 0);
            out.printf("\t\t\tactive_width:\t\t%sX (%d)%n", "1", 1);
            out.printf("\t\t\tactive_speed:\t\t%s (%d)%n", "2.5 Gbps", 1);
            out.printf("\t\t\tphys_state:\t\t%s (%d)%n", "LINK_UP", 5);
            for (GidEntry g : ctx.gidTable(Port.NUMBER)) {
                out.printf("\t\t\tGID[%3d]:\t\t%s, %s%n", g.index(),
                        g.type() == GidType.ROCE_V1 ? GidEntry.format(g.gid()) : Gids.ntop(g.gid()), g.type().label());
            }
        }
        out.printf("%n");
        if (verbose && dev instanceof EmulatedDevice emulated) {
            printJrxeSection(out, emulated, ctx, transmit);
        }
    }

    /** device_cap_flags as rxe sets them for a device with these attributes (perftest's negotiation sends them too). */
    public static int capFlags(DeviceAttributes a) {
        return RXE_CAP_FLAGS | (a.memoryWindowType1() ? MEM_WINDOW : 0) | (a.memoryWindowType2() ? MEM_WINDOW_TYPE_2B : 0);
    }

    private static void printCapabilities(PrintWriter out, DeviceAttributes a) {
        int capFlags = capFlags(a);
        out.printf("\tmax_mr_size:\t\t\t0x%x%n", a.maxMrSize());
        out.printf("\tpage_size_cap:\t\t\t0x%x%n", a.pageSizeCap());
        out.printf("\tmax_qp:\t\t\t\t%d%n", a.maxQp());
        out.printf("\tmax_qp_wr:\t\t\t%d%n", a.maxQpWr());
        out.printf("\tdevice_cap_flags:\t\t0x%08x%n", capFlags);
        String[] names = {"RESIZE_MAX_WR", "BAD_PKEY_CNTR", "BAD_QKEY_CNTR", "RAW_MULTI", "AUTO_PATH_MIG", "CHANGE_PHY_PORT",
            "UD_AV_PORT_ENFORCE", "CURR_QP_STATE_MOD", "SHUTDOWN_PORT", "INIT_TYPE", "PORT_ACTIVE_EVENT", "SYS_IMAGE_GUID",
            "RC_RNR_NAK_GEN", "SRQ_RESIZE", "N_NOTIFY_CQ", null, null, "MEM_WINDOW", "UD_IP_CSUM", null, "XRC",
            "MEM_MGT_EXTENSIONS", null, "MEM_WINDOW_TYPE_2A", "MEM_WINDOW_TYPE_2B", "RC_IP_CSUM", "RAW_IP_CSUM", null, null,
            "MANAGED_FLOW_STEERING"};
        for (int bit = 0; bit < names.length; bit++) {
            if (names[bit] != null && (capFlags & (1 << bit)) != 0) {
                out.printf("\t\t\t\t\t%s%n", names[bit]);
            }
        }
        out.printf("\tmax_sge:\t\t\t%d%n", a.maxSge());
        out.printf("\tmax_sge_rd:\t\t\t%d%n", a.maxSgeRd());
        out.printf("\tmax_cq:\t\t\t\t%d%n", a.maxCq());
        out.printf("\tmax_cqe:\t\t\t%d%n", a.maxCqe());
        out.printf("\tmax_mr:\t\t\t\t%d%n", a.maxMr());
        out.printf("\tmax_pd:\t\t\t\t%d%n", a.maxPd());
        out.printf("\tmax_qp_rd_atom:\t\t\t%d%n", a.maxQpRdAtom());
        out.printf("\tmax_ee_rd_atom:\t\t\t%d%n", 0);
        out.printf("\tmax_res_rd_atom:\t\t%d%n", a.maxResRdAtom());
        out.printf("\tmax_qp_init_rd_atom:\t\t%d%n", a.maxQpInitRdAtom());
        out.printf("\tmax_ee_init_rd_atom:\t\t%d%n", 0);
        out.printf("\tatomic_cap:\t\t\t%s (%d)%n", "ATOMIC_" + a.atomicCapability(), a.atomicCapability().ordinal());
        out.printf("\tmax_ee:\t\t\t\t%d%n", 0);
        out.printf("\tmax_rdd:\t\t\t%d%n", 0);
        out.printf("\tmax_mw:\t\t\t\t%d%n", a.maxMw());
        out.printf("\tmax_raw_ipv6_qp:\t\t%d%n", 0);
        out.printf("\tmax_raw_ethy_qp:\t\t%d%n", 0);
        out.printf("\tmax_mcast_grp:\t\t\t%d%n", a.maxMcastGrp());
        out.printf("\tmax_mcast_qp_attach:\t\t%d%n", a.maxMcastQpAttach());
        out.printf("\tmax_total_mcast_qp_attach:\t%d%n", a.maxTotalMcastQpAttach());
        out.printf("\tmax_ah:\t\t\t\t%d%n", a.maxAh());
        out.printf("\tmax_fmr:\t\t\t%d%n", 0);
        out.printf("\tmax_srq:\t\t\t%d%n", a.maxSrq());
        if (a.maxSrq() != 0) {
            out.printf("\tmax_srq_wr:\t\t\t%d%n", a.maxSrqWr());
            out.printf("\tmax_srq_sge:\t\t\t%d%n", a.maxSrqSge());
        }
        out.printf("\tmax_pkeys:\t\t\t%d%n", a.maxPkeys());
        out.printf("\tlocal_ca_ack_delay:\t\t%d%n", a.localCaAckDelay());
        OdpCapabilities odp = a.odpCapabilities();
        out.printf("\tgeneral_odp_caps:%n");
        odp.generalNames().forEach(name -> out.printf("\t\t\t\t\t%s%n", name));
        int[] transports = {odp.rc(), odp.uc(), odp.ud(), 0};
        String[] transportNames = {"rc", "uc", "ud", "xrc"};
        for (int t = 0; t < transportNames.length; t++) {
            out.printf("\t%s_odp_caps:%n", transportNames[t]);
            List<String> bits = OdpCapabilities.transportNames(transports[t]);
            if (bits.isEmpty()) {
                out.printf("\t\t\t\t\tNO SUPPORT%n");
            }
            bits.forEach(name -> out.printf("\t\t\t\t\t%s%n", name));
        }
        out.printf("\tcompletion_timestamp_mask not supported%n");
        out.printf("\tcore clock not supported%n");
        out.printf("\tdevice_cap_flags_ex:\t\t0x%X%n", capFlags);
        out.printf("\ttso_caps:%n\t\tmax_tso:\t\t\t%d%n", 0);
        out.printf("\trss_caps:%n");
        out.printf("\t\tmax_rwq_indirection_tables:\t\t\t%d%n", 0);
        out.printf("\t\tmax_rwq_indirection_table_size:\t\t\t%d%n", 0);
        out.printf("\t\trx_hash_function:\t\t\t\t0x%x%n", 0);
        out.printf("\t\trx_hash_fields_mask:\t\t\t\t0x%X%n", 0);
        out.printf("\tmax_wq_type_rq:\t\t\t%d%n", 0);
        out.printf("\tpacket_pacing_caps:%n");
        out.printf("\t\tqp_rate_limit_min:\t%dkbps%n", 0);
        out.printf("\t\tqp_rate_limit_max:\t%dkbps%n", 0);
        out.printf("\ttag matching not supported%n");
        out.printf("\tnum_comp_vectors:\t\t%d%n", 1);
    }

    private void printJrxeSection(PrintWriter out, EmulatedDevice dev, Context ctx, TransmitPath transmit)
            throws io.jrxe.verbs.VerbsException {
        out.printf("\tjrxe:%n");
        out.printf("\t\taddress:\t\t%s%n", device.address().getHostAddress());
        out.printf("\t\tudp_port:\t\t%d%n", 4791);
        out.printf("\t\tudp_transport:\t\t%s%n", UdpTransport.best().describe());
        out.printf("\t\t%s%n", transmit.describe());
        out.printf("\t\tinterface_mtu:\t\t%d%n", dev.nic().resources().port().interfaceMtu());
        out.printf("\t\tmtt_entries:\t\t%d%n", EmulatedExtension.of(dev).orElseThrow().mttEntries());
        out.printf("\t\tcounters:%n");
        for (Map.Entry<String, Long> c : ctx.counters().entrySet()) {
            out.printf("\t\t\t%-32s%d%n", c.getKey() + ":", c.getValue());
        }
        out.printf("%n");
    }

    /** The node GUID as ibv_devinfo prints it: four groups of four hex digits. */
    static String guid(long guid) {
        return String.format("%04x:%04x:%04x:%04x", (guid >>> 48) & 0xFFFF, (guid >>> 32) & 0xFFFF, (guid >>> 16) & 0xFFFF,
                guid & 0xFFFF);
    }

    private static String mtu(Mtu m) {
        return m.bytes() + " (" + m.verbsValue() + ")";
    }

    private static int portState(String state) {
        return switch (state) {
            case "DOWN" -> 1;
            case "INIT" -> 2;
            case "ARMED" -> 3;
            case "ACTIVE" -> 4;
            default -> 0;
        };
    }
}
