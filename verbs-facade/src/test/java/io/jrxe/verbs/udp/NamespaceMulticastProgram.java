package io.jrxe.verbs.udp;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.verbs.MulticastGid;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.emulated.Progress;
import io.jrxe.verbs.facade.Verbs;
import io.jrxe.verbs.sim.UdNode;

import java.lang.foreign.Arena;
import java.net.InetAddress;
import java.util.List;

/**
 * What {@link NamespaceMulticastTest} runs inside the network namespace it made: a veth pair va-vb, devices A and C
 * on two addresses of va, B on vb. A datagram from A reaches A's and C's QPs through the host's multicast loop
 * and B's through the veth; one from B the other way round. Every attached QP must get every datagram exactly
 * once: a device's group socket takes only what arrives on its own interface (IP_MULTICAST_ALL off), or A and C
 * would get B's datagrams twice. Prints one line and exits 0 when all is as expected, 1 with the counts if not.
 *
 * <p>Arguments: the group, then the addresses of A, B and C.
 */
public final class NamespaceMulticastProgram {
    private NamespaceMulticastProgram() {
    }

    public static void main(String[] args) throws Exception {
        InetAddress group = InetAddress.getByName(args[0]);
        byte[] gid = MulticastGid.of(group);
        try (Arena arena = Arena.ofShared()) {
            UdNode a = node("ns-a", args[1], arena);
            UdNode b = node("ns-b", args[2], arena);
            UdNode c = node("ns-c", args[3], arena);
            List<Qp> attached = List.of(a.qps.get(0), b.qps.get(0), b.qps.get(1), c.qps.get(0));
            List<UdNode> owner = List.of(a, b, b, c);
            for (int i = 0; i < attached.size(); i++) {
                attached.get(i).attachMcast(gid, 0);
                for (int k = 0; k < 6; k++) {
                    owner.get(i).postReceive(attached.get(i));
                }
            }
            c.postReceive(c.qps.get(1));
            a.sendToGroup(a.qps.get(1), group, "a1", UdNode.QKEY);
            a.sendToGroup(a.qps.get(1), group, "a2", UdNode.QKEY);
            await(attached, owner, 2);
            b.sendToGroup(b.qps.get(1), group, "b1", UdNode.QKEY);
            await(attached, owner, 3);
            // A last datagram, after which any duplicate of the first three (they took the same paths) has come.
            a.sendToGroup(a.qps.get(1), group, "a3", UdNode.QKEY);
            await(attached, owner, 4);
            StringBuilder counts = new StringBuilder();
            boolean exact = true;
            for (int i = 0; i < attached.size(); i++) {
                int n = owner.get(i).receivedBy(attached.get(i)).size();
                counts.append(' ').append(owner.get(i).device.name()).append('/').append(i).append('=').append(n);
                exact &= n == 4;
            }
            int stray = c.receivedBy(c.qps.get(1)).size() + a.receivedBy(a.qps.get(1)).size();
            counts.append(" unattached=").append(stray);
            System.out.println((exact && stray == 0 ? "OK" : "WRONG") + " " + group.getHostAddress() + ":" + counts);
            for (int i = 0; i < attached.size(); i++) {
                attached.get(i).detachMcast(gid, 0);
            }
            for (UdNode n : List.of(a, b, c)) {
                Verbs.emulated().remove(n.device);
            }
            System.exit(exact && stray == 0 ? 0 : 1);
        }
    }

    private static UdNode node(String name, String address, Arena arena) throws Exception {
        return new UdNode(Verbs.emulated().createUdp(DeviceConfig.of(name, InetAddress.getByName(address)), Progress.NIC_THREAD),
                2, arena);
    }

    private static void await(List<Qp> qps, List<UdNode> owners, int n) {
        for (int i = 0; i < qps.size(); i++) {
            Qp qp = qps.get(i);
            UdNode owner = owners.get(i);
            if (!owner.pollUntil(() -> owner.receivedBy(qp).size() >= n, 10_000)) {
                System.out.println("WRONG: QP " + i + " of " + owner.device.name() + " got " + owner.receivedBy(qp).size()
                        + " of " + n + " datagrams in 10 s");
                System.exit(1);
            }
        }
    }
}
