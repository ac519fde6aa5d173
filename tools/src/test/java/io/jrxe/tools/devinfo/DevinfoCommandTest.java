package io.jrxe.tools.devinfo;

import io.jrxe.tools.common.BadOptionAnswer;
import io.jrxe.tools.common.InProcess;
import io.jrxe.wire.port.raw.RawSocketOpener;
import io.jrxe.wire.port.raw.TransmitPath;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** jrxe devinfo prints what ibv_devinfo prints, in its layout (tabs and all). */
class DevinfoCommandTest {
    @Test
    void theShortFormIsIbvDevinfos() {
        InProcess r = InProcess.run("devinfo", "--addr", "127.0.1.80", "-d", "jrxe7");
        assertThat(r.status()).as(r.toString()).isZero();
        assertThat(r.lines()).containsExactly(
                "hca_id:\tjrxe7",
                "\ttransport:\t\t\tInfiniBand (0)",
                "\tfw_ver:\t\t\t\t0.0.0",
                "\tnode_guid:\t\t\t0000:7fff:fe00:0150",
                "\tsys_image_guid:\t\t\t0000:7fff:fe00:0150",
                "\tvendor_id:\t\t\t0xffffff",
                "\tvendor_part_id:\t\t\t0",
                "\thw_ver:\t\t\t\t0x0",
                "\tphys_port_cnt:\t\t\t1",
                "\t\tport:\t1",
                "\t\t\tstate:\t\t\tPORT_ACTIVE (4)",
                "\t\t\tmax_mtu:\t\t4096 (5)",
                "\t\t\tactive_mtu:\t\t1024 (3)",
                "\t\t\tsm_lid:\t\t\t0",
                "\t\t\tport_lid:\t\t0",
                "\t\t\tport_lmc:\t\t0x00",
                "\t\t\tlink_layer:\t\tEthernet",
                "");
    }

    @Test
    void verboseAddsCapabilitiesGidsTransportAndCounters() {
        InProcess r = InProcess.run("devinfo", "-v", "--addr", "127.0.1.81");
        assertThat(r.status()).as(r.toString()).isZero();
        List<String> lines = r.lines();
        for (String cap : new String[] {"max_mr_size", "page_size_cap", "max_qp", "max_qp_wr", "device_cap_flags", "max_sge",
            "max_cq", "max_cqe", "max_mr", "max_pd", "max_qp_rd_atom", "max_res_rd_atom", "max_qp_init_rd_atom", "atomic_cap",
            "max_mw", "max_ah", "max_srq", "max_srq_wr", "max_srq_sge", "max_pkeys", "local_ca_ack_delay"}) {
            assertThat(lines).as(cap).anyMatch(l -> l.matches("\t" + cap + ":\t+\\S.*"));
        }
        assertThat(lines).contains("\tmax_qp_rd_atom:\t\t\t128", "\tatomic_cap:\t\t\tATOMIC_HCA (1)",
                "\tdevice_cap_flags:\t\t0x01223c76", "\t\t\t\t\tMEM_WINDOW_TYPE_2B",
                "\t\t\tGID[  0]:\t\t0000:0000:0000:0000:0000:ffff:7f00:0151, RoCE v1",
                "\t\t\tGID[  1]:\t\t::ffff:127.0.1.81, RoCE v2",
                "\t\t\tmax_msg_sz:\t\t0x800000", "\t\t\tgid_tbl_len:\t\t2", "\t\taddress:\t\t127.0.1.81",
                "\t\tmtt_entries:\t\t2097152");
        // rxe's ODP caps since Linux 6.16, as ibv_devinfo -v lays them out.
        int general = lines.indexOf("\tgeneral_odp_caps:");
        assertThat(lines.subList(general, general + 14)).containsExactly("\tgeneral_odp_caps:", "\t\t\t\t\tODP_SUPPORT",
                "\trc_odp_caps:", "\t\t\t\t\tSUPPORT_SEND", "\t\t\t\t\tSUPPORT_RECV", "\t\t\t\t\tSUPPORT_WRITE",
                "\t\t\t\t\tSUPPORT_READ", "\t\t\t\t\tSUPPORT_ATOMIC", "\t\t\t\t\tSUPPORT_SRQ", "\t\t\t\t\tSUPPORT_FLUSH",
                "\t\t\t\t\tSUPPORT_ATOMIC_WRITE", "\tuc_odp_caps:", "\t\t\t\t\tNO SUPPORT", "\tud_odp_caps:");
        assertThat(lines).anyMatch(l -> l.matches("\t\tudp_transport:\t\t(epoll \\(recvmmsg\\)|NIO.*)"));
        TransmitPath expected = TransmitPath.probe(false, RawSocketOpener.system());
        assertThat(lines).contains("\t\t" + expected.describe());
        assertThat(r.err()).isEqualTo(expected.kernelPeersAccept() ? "" : "jrxe: jrxe0: " + expected.describe() + "\n");
        assertThat(lines).anyMatch(l -> l.matches("\t\t\tsent_pkts:\\s+0"));
        assertThat(lines).anyMatch(l -> l.matches("\t\t\tjrxe_drop_psn_out_of_window:\\s+0"));
        assertThat(lines.indexOf("\t\tport:\t1")).as("capabilities come before the port").isGreaterThan(lines.indexOf("\tmax_pkeys:\t\t\t64"));
    }

    @Test
    void implicitOdpAddsItsGeneralCapAndNothingElse() {
        InProcess r = InProcess.run("devinfo", "-v", "--addr", "127.0.1.83", "-d", "jrxe9", "--odp-implicit");
        assertThat(r.status()).as(r.toString()).isZero();
        List<String> lines = r.lines();
        int general = lines.indexOf("\tgeneral_odp_caps:");
        assertThat(lines.subList(general, general + 5)).containsExactly("\tgeneral_odp_caps:", "\t\t\t\t\tODP_SUPPORT",
                "\t\t\t\t\tODP_SUPPORT_IMPLICIT", "\trc_odp_caps:", "\t\t\t\t\tSUPPORT_SEND");
        InProcess without = InProcess.run("devinfo", "-v", "--addr", "127.0.1.83", "-d", "jrxe9");
        List<String> rest = new java.util.ArrayList<>(lines);
        rest.remove("\t\t\t\t\tODP_SUPPORT_IMPLICIT");
        assertThat(capabilities(rest)).as("every other line as without it").isEqualTo(capabilities(without.lines()));
    }

    /** The lines before the port's: the device's attributes and caps (the port's counters and GIDs can differ). */
    private static List<String> capabilities(List<String> lines) {
        return lines.subList(0, lines.indexOf("\t\tport:\t1"));
    }

    @Test
    void withoutTheRawSocketDevinfoWarnsThatKernelPeersWillDropThePackets() {
        System.setProperty(RawSocketOpener.PROPERTY, "udp");
        try {
            InProcess r = InProcess.run("devinfo", "-v", "--addr", "127.0.1.82", "-d", "jrxe8");
            assertThat(r.status()).as(r.toString()).isZero();
            String line = "IPv4 transmit: UDP socket (-Djrxe.ipv4.transmit=udp): IPv4 peers other than jrxe will drop its packets";
            assertThat(r.lines()).contains("\t\t" + line);
            assertThat(r.rawErr()).isEqualTo("jrxe: jrxe8: " + line + "\n");
        } finally {
            System.clearProperty(RawSocketOpener.PROPERTY);
        }
    }

    @Test
    void ipv6DevicesNeedNoRawSocket() {
        InProcess r = InProcess.run("devinfo", "-v", "--addr", "::1");
        assertThat(r.status()).as(r.toString()).isZero();
        assertThat(r.lines()).contains("\t\tIPv6 transmit: UDP socket (every byte the ICRC covers is known)");
        assertThat(r.err()).isEmpty();
    }

    @Test
    void listAndPorts() {
        assertThat(InProcess.run("devinfo", "-l", "-d", "jrxe3").out()).isEqualTo("1 HCA found:\n\tjrxe3\n\n");
        BadOptionAnswer.check(InProcess.run("devinfo", "-i", "0"), "devinfo", "-i");
        BadOptionAnswer.check(InProcess.run("devinfo", "-i", "2"), "devinfo", "-i/--ib-port 2: Invalid port requested for device");
        assertThat(InProcess.run("devinfo", "--bogus").status()).isEqualTo(1);
    }
}
