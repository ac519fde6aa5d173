package io.jrxe.tools.mcast;

import io.jrxe.tools.BadOption;
import io.jrxe.tools.UserError;
import io.jrxe.tools.common.DeviceOptions;
import io.jrxe.tools.common.Gids;
import io.jrxe.tools.common.IbPortOption;
import io.jrxe.tools.common.IpAddressOption;
import io.jrxe.tools.common.FamilyGid;
import io.jrxe.tools.common.LocalDevice;
import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.MulticastGid;
import io.jrxe.verbs.PortInfo;
import io.jrxe.verbs.VerbsException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.concurrent.Callable;

/** `jrxe mcast`: a UD QP attached to a multicast group, receiving from it and sending to it. */
@Command(name = "mcast", mixinStandardHelpOptions = true,
        description = {"UD multicast on a jrxe NIC or a kernel device (-d rxe0): a UD QP is attached to GROUP "
                + "(ibv_attach_mcast) and waits for --recv datagrams sent to the group, and/or sends --send datagrams to "
                + "it (to QP 0xFFFFFF, as every multicast datagram is addressed). Each datagram is printed with its "
                + "sender's address and QP. Any number of receivers, on any devices of the network, each get a copy.",
            "GROUP is an IP multicast address, IPv4 (224.0.0.0/4, its GID ::ffff:GROUP) or IPv6 (ff00::/8); the "
                + "device's GID must be of the same family (-g, or --addr for a jrxe NIC).",
            "A kernel device's rxe attaches QPs to a group without joining the IP group on its interface, and the "
                + "kernel drops what it has not joined: on a kernel device the command also joins the group through a "
                + "UDP socket on the GID's interface (--no-ip-join to see rxe receive nothing without it)."},
        exitCodeListHeading = "Exit status:%n",
        exitCodeList = {"0:every datagram was sent and every one waited for arrived", "1:bad options",
            "2:the device refused (attach, send), or datagrams did not arrive within --timeout"})
public final class McastCommand implements Callable<Integer> {
    static final int DEFAULT_QKEY = 0x11111111;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    DeviceOptions device;

    @Mixin
    IbPortOption ibPort;

    @Parameters(index = "0", paramLabel = "GROUP", description = "the multicast group: 239.1.2.3, ff0e::1:2, ...")
    String group;

    @Option(names = "--recv", paramLabel = "N", defaultValue = "0",
            description = "attach to the group and wait for N datagrams (default: ${DEFAULT-VALUE})")
    int recv;

    @Option(names = "--send", paramLabel = "N", defaultValue = "0",
            description = "send N datagrams to the group (default: ${DEFAULT-VALUE})")
    int send;

    @Option(names = {"-s", "--size"}, paramLabel = "BYTES", defaultValue = "64",
            description = "bytes in each datagram sent, at most the port's active MTU (default: ${DEFAULT-VALUE})")
    int size;

    @Option(names = "--qkey", paramLabel = "QKEY", defaultValue = "0x11111111",
            description = "the Q_Key the QP accepts and sends with, decimal or 0x hex; its high bit must be clear "
                    + "(default: ${DEFAULT-VALUE}, ibv_ud_pingpong's)")
    String qkey;

    @Option(names = "--interval", paramLabel = "MS", defaultValue = "100",
            description = "milliseconds between two datagrams sent (default: ${DEFAULT-VALUE})")
    int intervalMillis;

    @Option(names = {"-g", "--gid-idx"}, paramLabel = "INDEX", defaultValue = "-1",
            description = "local port GID index, as `jrxe devinfo -v` lists them (default: a RoCE v2 GID of GROUP's family)")
    int gidIndex;

    @Option(names = "--no-ip-join",
            description = "on a kernel device, do not join the IP group through a UDP socket (rxe then receives nothing)")
    boolean noIpJoin;

    @Override
    public Integer call() {
        InetAddress groupAddress = groupAddress();
        int qkeyValue = qkeyValue();
        validate();
        PrintWriter out = spec.commandLine().getOut();
        try (LocalDevice dev = device.open(spec.commandLine().getErr())) {
            boolean kernel = !"emulated".equals(dev.provider());
            if (noIpJoin && !kernel) {
                throw new BadOption("--no-ip-join applies to kernel devices: a jrxe NIC's port joins the group itself");
            }
            PortInfo port = dev.port(ibPort.number());
            int mtu = port.activeMtu().bytes();
            if (size > mtu) {
                throw new BadOption("-s/--size " + size + ": larger than the port's active MTU (" + mtu + ")");
            }
            GidEntry gid = FamilyGid.choose(dev, ibPort.number(), gidIndex, groupAddress instanceof Inet6Address, "GROUP " + group);
            byte[] groupGid = MulticastGid.of(groupAddress);
            try (McastEndpoint ep = new McastEndpoint(dev, mtu, qkeyValue, groupGid);
                 IpGroupMembership member = recv > 0 && kernel && !noIpJoin
                         ? IpGroupMembership.join(groupAddress, GidEntry.addressOf(gid.gid())) : null) {
                out.printf("mcast on %s (%s): QP 0x%06x, GID index %d (%s), group %s (GID %s), Q_Key 0x%08x%n", dev.name(),
                        dev.provider(), ep.qp.qpNum(), gid.index(), Gids.ntop(gid.gid()), Gids.ip(groupAddress),
                        Gids.ntop(groupGid), qkeyValue);
                if (member != null) {
                    out.printf("joined %s on %s through a UDP socket: rxe does not join IP groups itself%n",
                            Gids.ip(groupAddress), member.interfaceName());
                }
                McastTraffic traffic = new McastTraffic(ep, dev, out, device.timeoutMillis());
                if (recv > 0) {
                    ep.attach();
                    traffic.postReceives(recv);
                    out.printf("attached QP 0x%06x to %s; waiting for %d datagram%s%n", ep.qp.qpNum(),
                            Gids.ip(groupAddress), recv, recv == 1 ? "" : "s");
                    out.flush();
                }
                for (int i = 1; i <= send; i++) {
                    traffic.send(i, send, size, qkeyValue, gid.index(), groupAddress);
                    traffic.receiveWaiting(recv);
                    if (i < send && intervalMillis > 0) {
                        traffic.pace(intervalMillis, recv);
                    }
                }
                traffic.receive(recv);
                out.printf("mcast: sent %d, received %d%n", send, traffic.received());
                return 0;
            } catch (VerbsException e) {
                throw new UserError(e.getMessage(), e);
            } finally {
                out.flush();
                dev.report(spec.commandLine().getErr());
            }
        }
    }

    private InetAddress groupAddress() {
        InetAddress a = IpAddressOption.parse(group, "GROUP " + group + ": not an IP address");
        if (!a.isMulticastAddress()) {
            throw new BadOption("GROUP " + group + ": not a multicast address (224.0.0.0/4 or ff00::/8)");
        }
        return a;
    }

    private int qkeyValue() {
        try {
            long v = qkey.startsWith("0x") || qkey.startsWith("0X") ? Long.parseLong(qkey.substring(2), 16) : Long.parseLong(qkey);
            if (v < 0 || v > 0x7FFFFFFFL) {
                throw new BadOption("--qkey " + qkey + ": from 0 to 0x7fffffff (a Q_Key with its high bit set asks a "
                        + "sender to use its QP's own)");
            }
            return (int) v;
        } catch (NumberFormatException e) {
            throw new BadOption("--qkey " + qkey + ": not a number (decimal, or hex with 0x)", e);
        }
    }

    private void validate() {
        if (recv < 0 || send < 0) {
            throw new BadOption((recv < 0 ? "--recv " + recv : "--send " + send) + ": a count of datagrams, 0 or more");
        }
        if (recv == 0 && send == 0) {
            throw new BadOption("nothing to do: give --recv N to receive from the group, --send N to send to it, or both");
        }
        if (size < 1) {
            throw new BadOption("-s/--size " + size + ": at least 1 byte");
        }
        if (intervalMillis < 0 || intervalMillis > 60_000) {
            throw new BadOption("--interval " + intervalMillis + ": from 0 to 60000 milliseconds");
        }
    }
}
