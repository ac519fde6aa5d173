package io.jrxe.verbs.sim;

import io.jrxe.rnic.device.Counter;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.MulticastGid;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.wire.port.PeerAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;

import static io.jrxe.verbs.sim.Ops.MS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * UD multicast on either fixture wire ({@link UdNodes}): several QPs on several devices attached to a group, each datagram to the
 * group reaching exactly the attached QPs, once each, and no other; detaching stops it; the Q_Key and the QP's
 * state decide for each QP on its own, as rxe_rcv_mcast_pkt does; the port joins a group while a QP of its device
 * is attached.
 */
class MulticastTest {
    private static byte[] gid(String group) throws Exception {
        return MulticastGid.of(InetAddress.getByName(group));
    }

    @ParameterizedTest(name = "{0} on {1}")
    @CsvSource({"239.1.1.1, 10.0.0.", "ff0e::1:1, fd00::"})
    void everyAttachedQpGetsOneCopyAndNoOtherQpDoes(String group, String prefix) throws Exception {
        try (UdNodes net = new UdNodes(1)) {
            UdNode n1 = net.add(prefix + "1", 2);
            UdNode n2 = net.add(prefix + "2", 2);
            UdNode n3 = net.add(prefix + "3", 2);
            InetAddress g = InetAddress.getByName(group);
            List<Qp> attached = List.of(n1.qps.get(0), n2.qps.get(0), n2.qps.get(1), n3.qps.get(1));
            List<UdNode> owners = List.of(n1, n2, n2, n3);
            for (int i = 0; i < attached.size(); i++) {
                attached.get(i).attachMcast(gid(group), 0);
                owners.get(i).postReceive(attached.get(i));
                owners.get(i).postReceive(attached.get(i));
            }
            n1.postReceive(n1.qps.get(1));
            n3.postReceive(n3.qps.get(0));
            net.assertMembers(PeerAddress.of(g), prefix + "1", prefix + "2", prefix + "3"); // each device's port joined once

            n1.sendToGroup(n1.qps.get(1), g, "hello group", UdNode.QKEY);
            net.run(10 * MS, () -> n1.sent.size() == 1 && received(net) == attached.size());

            assertThat(n1.sent).singleElement().extracting(WorkCompletion::status).isEqualTo(WcStatus.SUCCESS);
            for (int i = 0; i < attached.size(); i++) {
                List<WorkCompletion> got = owners.get(i).receivedBy(attached.get(i));
                assertThat(got).as("QP %d of %s", i, owners.get(i).device).hasSize(1);
                WorkCompletion wc = got.getFirst();
                assertThat(wc.status()).isEqualTo(WcStatus.SUCCESS);
                assertThat(wc.srcQp()).isEqualTo(n1.qps.get(1).qpNum());
                assertThat(owners.get(i).text(wc)).isEqualTo("hello group");
                assertThat(destinationInGrh(owners.get(i).grh(wc), g)).as("the GRH's destination is the group").isTrue();
            }
            assertThat(n1.receivedBy(n1.qps.get(1))).as("the sender is not attached").isEmpty();
            assertThat(n3.receivedBy(n3.qps.get(0))).as("n3's other QP is not attached").isEmpty();
            assertThat(n2.counter(Counter.MCAST_COPIES)).isEqualTo(2);
            assertThat(n2.counter(Counter.MCAST_RCVD_PKTS)).as("one packet, two copies").isEqualTo(1);
            assertThat(n2.counter(Counter.RCVD_PKTS)).isEqualTo(1);
            assertThat(n1.counter(Counter.MCAST_SENT_PKTS)).isEqualTo(1);

            // Detaching: n3's last QP leaves, so its port leaves the group; n2 keeps one QP in it.
            n3.qps.get(1).detachMcast(gid(group), 0);
            n2.qps.get(1).detachMcast(gid(group), 0);
            net.assertMembers(PeerAddress.of(g), prefix + "1", prefix + "2");
            n1.sendToGroup(n1.qps.get(1), g, "second", UdNode.QKEY);
            net.run(10 * MS, () -> n1.sent.size() == 2 && received(net) == attached.size() + 2);
            assertThat(n1.receivedBy(n1.qps.get(0))).hasSize(2);
            assertThat(n2.receivedBy(n2.qps.get(0))).hasSize(2);
            assertThat(n2.receivedBy(n2.qps.get(1))).as("detached").hasSize(1);
            assertThat(n3.receivedBy(n3.qps.get(1))).as("detached").hasSize(1);
            assertThat(n3.counter(Counter.DROP_NO_MCAST_GROUP)).as("n3's port left: nothing reached it").isZero();
        }
    }

    private static int received(UdNodes net) {
        return net.nodes.stream().mapToInt(n -> n.received.size()).sum();
    }

    /** The GRH area holds the IP header the datagram came in: IPv6 in all 40 bytes, IPv4 in the last 20. */
    private static boolean destinationInGrh(byte[] grh, InetAddress group) {
        byte[] ip = group.getAddress();
        return ip.length == 4 ? Arrays.equals(grh, 36, 40, ip, 0, 4) : Arrays.equals(grh, 24, 40, ip, 0, 16);
    }

    @Test
    void eachQpChecksItsOwnQkeyAndStateAndTheOthersStillGetTheirCopy() throws Exception {
        try (UdNodes net = new UdNodes(2)) {
            UdNode sender = net.add("10.0.0.1", 1);
            UdNode r = net.add("10.0.0.2", 1);
            Qp good = r.qps.get(0);
            Qp otherKey = r.udQp(0x2222);
            Qp notReady = r.pd.createQp(new QpInitAttributes(QpType.UD, r.cq, r.cq, null, new QpCapabilities(4, 4, 1, 1, 0), false));
            notReady.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).qkey(UdNode.QKEY));
            InetAddress g = InetAddress.getByName("239.2.2.2");
            for (Qp q : List.of(good, otherKey, notReady)) {
                q.attachMcast(gid("239.2.2.2"), 0);
                r.postReceive(q);
            }
            sender.sendToGroup(sender.qps.get(0), g, "keyed", UdNode.QKEY);
            net.run(10 * MS, () -> r.received.size() == 1 && r.counter(Counter.DROP_BAD_QKEY) == 1
                    && r.counter(Counter.DROP_QP_STATE) == 1);
            assertThat(r.receivedBy(good)).hasSize(1);
            assertThat(r.receivedBy(otherKey)).as("another Q_Key").isEmpty();
            assertThat(r.receivedBy(notReady)).as("a QP in INIT receives nothing").isEmpty();
            assertThat(r.counter(Counter.DROP_BAD_QKEY)).isEqualTo(1);
            assertThat(r.counter(Counter.DROP_QP_STATE)).isEqualTo(1);
            assertThat(r.counter(Counter.MCAST_COPIES)).isEqualTo(1);

            // A datagram with the other Q_Key reaches only the QP that has it.
            sender.sendToGroup(sender.qps.get(0), g, "other", 0x2222);
            net.run(10 * MS, () -> r.received.size() == 2);
            assertThat(r.receivedBy(otherKey)).singleElement().satisfies(wc -> assertThat(r.text(wc)).isEqualTo("other"));
            assertThat(r.receivedBy(good)).hasSize(1);
        }
    }

    @Test
    void anAttachedSenderGetsItsOwnDatagramAsAHostWithMulticastLoopDoes() throws Exception {
        try (UdNodes net = new UdNodes(3)) {
            UdNode n = net.add("10.0.0.1", 2);
            InetAddress g = InetAddress.getByName("239.3.3.3");
            for (Qp q : n.qps) {
                q.attachMcast(gid("239.3.3.3"), 0);
                n.postReceive(q);
            }
            n.sendToGroup(n.qps.get(0), g, "loop", UdNode.QKEY);
            net.run(10 * MS, () -> n.received.size() == 2);
            assertThat(n.receivedBy(n.qps.get(0))).hasSize(1);
            assertThat(n.receivedBy(n.qps.get(1))).hasSize(1);
        }
    }

    @Test
    void aDatagramForQp0xffffffToAnAddressThatIsNoGroupOfTheDeviceIsDroppedAndCounted() throws Exception {
        try (UdNodes net = new UdNodes(4)) {
            UdNode sender = net.add("10.0.0.1", 1);
            UdNode r = net.add("10.0.0.2", 1);
            r.postReceive(r.qps.get(0));
            sender.send(sender.qps.get(0), PeerAddress.of("10.0.0.2").gid(), MulticastGid.QPN, "not a group", UdNode.QKEY);
            net.run(10 * MS, () -> r.counter(Counter.DROP_NO_MCAST_GROUP) == 1);
            assertThat(r.received).isEmpty();
            assertThat(r.counter(Counter.DROP_NO_MCAST_GROUP)).isEqualTo(1);
        }
    }

    @Test
    void theVerbsRefuseAsTheKernelDoes() throws Exception {
        try (UdNodes net = new UdNodes(5)) {
            UdNode n = net.add("10.0.0.1", 1);
            Qp ud = n.qps.get(0);
            Qp rc = n.pd.createQp(new QpInitAttributes(QpType.RC, n.cq, n.cq, null, new QpCapabilities(4, 4, 1, 1, 0), false));
            assertThat(refusal(() -> rc.attachMcast(gid("239.1.1.1"), 0)).errno()).isEqualTo(Errno.EINVAL);
            assertThat(refusal(() -> ud.attachMcast(PeerAddress.of("10.0.0.9").gid(), 0)).errno()).isEqualTo(Errno.EINVAL);
            assertThat(refusal(() -> ud.detachMcast(gid("239.1.1.1"), 0)).errno()).isEqualTo(Errno.EINVAL);

            ud.attachMcast(gid("239.1.1.1"), 0);
            VerbsException busy = refusal(ud::close);
            assertThat(busy.errno()).isEqualTo(Errno.EBUSY);
            assertThat(busy.getMessage()).contains("detach it first");
            ud.detachMcast(gid("239.1.1.1"), 0);
            net.assertMembers(PeerAddress.of("239.1.1.1"));
            ud.close();
            rc.close();
        }
    }

    private static VerbsException refusal(ThrowingCall call) {
        VerbsException e = catchThrowableOfType(VerbsException.class, call::run);
        assertThat(e).as("refused").isNotNull();
        return e;
    }

    @FunctionalInterface
    interface ThrowingCall {
        void run() throws Exception;
    }
}
