package io.jrxe.verbs.udp;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicContext;
import io.jrxe.rnic.device.Counter;
import io.jrxe.verbs.MulticastGid;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.emulated.Progress;
import io.jrxe.verbs.facade.Verbs;
import io.jrxe.verbs.sim.UdNode;
import io.jrxe.wire.port.shm.ShmDirectory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * UD multicast on real wires. Over UDP, IPv4 on lo, which carries multicast without any setup (the devices' sockets
 * are bound to loopback addresses, and Linux sends their multicast out of the interface that has the address): two
 * devices with NIC threads (epoll) and one run by the program's thread (JDK sockets). On the shared-memory wire, three
 * devices in a directory of the test's own. Each time three devices join a group, and every datagram reaches each
 * attached QP once and no other QP. The group and the addresses are drawn at random so that builds running side by
 * side on this host do not meet.
 */
class LoopbackMulticastTest {
    private static final int DATAGRAMS = 3;
    private final Arena arena = Arena.ofShared();
    private final List<UdNode> nodes = new ArrayList<>();

    @AfterEach
    void close() {
        nodes.forEach(n -> Verbs.emulated().remove(n.device));
        arena.close();
    }

    @TempDir
    Path rings;
    private String wire;

    private UdNode node(String name, String address, Progress progress) throws Exception {
        DeviceConfig config = DeviceConfig.of(name, InetAddress.getByName(address));
        UdNode n = new UdNode(wire.equals("shm") ? Verbs.emulated().createShm(new NicContext(config), new ShmDirectory(rings))
                : Verbs.emulated().createUdp(config, progress), 2, arena);
        nodes.add(n);
        return n;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"udp", "shm"})
    void everyAttachedQpOfThreeDevicesGetsEachDatagramOnce(String wire) throws Exception {
        this.wire = wire;
        ThreadLocalRandom r = ThreadLocalRandom.current();
        String net = "127." + (150 + r.nextInt(50)) + "." + r.nextInt(256) + ".";
        InetAddress group = InetAddress.getByName("239." + (192 + r.nextInt(4)) + "." + r.nextInt(256) + "." + (1 + r.nextInt(254)));
        byte[] gid = MulticastGid.of(group);
        UdNode a = node("mc-lo-a", net + "1", Progress.NIC_THREAD);
        UdNode b = node("mc-lo-b", net + "2", Progress.NIC_THREAD);
        UdNode c = node("mc-lo-c", net + "3", Progress.INVOKER);
        List<Qp> attached = List.of(a.qps.get(0), b.qps.get(0), b.qps.get(1), c.qps.get(0));
        List<UdNode> owner = List.of(a, b, b, c);
        for (int i = 0; i < attached.size(); i++) {
            attached.get(i).attachMcast(gid, 0);
            for (int k = 0; k < DATAGRAMS + 2; k++) {
                owner.get(i).postReceive(attached.get(i));
            }
        }
        c.postReceive(c.qps.get(1));

        for (int k = 0; k < DATAGRAMS; k++) {
            a.sendToGroup(a.qps.get(1), group, "datagram " + k, UdNode.QKEY);
        }
        awaitEach(attached, owner, DATAGRAMS);
        for (int i = 0; i < attached.size(); i++) {
            List<WorkCompletion> got = owner.get(i).receivedBy(attached.get(i));
            assertThat(got).as("QP %d", i).hasSize(DATAGRAMS);
            assertThat(got.stream().map(owner.get(i)::text)).as("QP %d", i).containsExactlyInAnyOrder("datagram 0", "datagram 1", "datagram 2");
            assertThat(got).allSatisfy(wc -> assertThat(wc.srcQp()).isEqualTo(a.qps.get(1).qpNum()));
            byte[] grh = owner.get(i).grh(got.getFirst());
            assertThat(Arrays.copyOfRange(grh, 36, 40)).as("the GRH's destination is the group").isEqualTo(group.getAddress());
        }
        assertThat(c.receivedBy(c.qps.get(1))).as("not attached").isEmpty();
        assertThat(a.receivedBy(a.qps.get(1))).as("the sender, not attached").isEmpty();
        assertThat(b.counter(Counter.MCAST_COPIES)).isEqualTo(2L * DATAGRAMS);
        assertThat(c.counter(Counter.MCAST_RCVD_PKTS)).isEqualTo(DATAGRAMS);
        assertThat(a.counter(Counter.MCAST_SENT_PKTS)).isEqualTo(DATAGRAMS);

        // The invoked device sends; then its QP leaves and its port with it, and the next datagram misses it.
        c.sendToGroup(c.qps.get(1), group, "from c", UdNode.QKEY);
        awaitEach(attached, owner, DATAGRAMS + 1);
        c.qps.get(0).detachMcast(gid, 0);
        a.sendToGroup(a.qps.get(1), group, "after c left", UdNode.QKEY);
        awaitEach(attached.subList(0, 3), owner.subList(0, 3), DATAGRAMS + 2);
        assertThat(c.receivedBy(c.qps.get(0))).hasSize(DATAGRAMS + 1);
        assertThat(c.counter(Counter.MCAST_RCVD_PKTS)).as("nothing for the group reached c after it left").isEqualTo(DATAGRAMS + 1);
        for (int i = 0; i < 3; i++) {
            assertThat(owner.get(i).receivedBy(attached.get(i))).as("QP %d: each datagram once", i).hasSize(DATAGRAMS + 2);
        }
        a.qps.get(0).detachMcast(gid, 0);
        b.qps.get(0).detachMcast(gid, 0);
        b.qps.get(1).detachMcast(gid, 0);
    }

    /** Polls every device until each attached QP has {@code n} receive completions; fails after 10 s. */
    private static void awaitEach(List<Qp> qps, List<UdNode> owners, int n) {
        for (int i = 0; i < qps.size(); i++) {
            Qp qp = qps.get(i);
            UdNode owner = owners.get(i);
            boolean done = owner.pollUntil(() -> owner.receivedBy(qp).size() >= n, 10_000);
            assertThat(done).as("QP %d of %s got %d of %d datagrams", i, owner.device, owner.receivedBy(qp).size(), n).isTrue();
        }
    }
}
