package io.jrxe.verbs.udp;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.verbs.emulated.JmxNames;
import io.jrxe.verbs.facade.Verbs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two jrxe devices on UDP in this JVM publish their counters and QPs on the platform MBean server: the attributes
 * follow the QPs through their states, PSNs and queues, and disappear with the QP and the device.
 */
class LiveStateMBeanTest {
    private static final int SQ_PSN_A = 0x100;
    private static final int SQ_PSN_B = 0x200;

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final Arena arena = Arena.ofShared();
    private EmulatedDevice a;
    private EmulatedDevice b;

    @BeforeEach
    void devices() throws Exception {
        a = Verbs.emulated().createUdp(DeviceConfig.of("live-a", InetAddress.getByName("127.0.5.1")));
        b = Verbs.emulated().createUdp(DeviceConfig.of("live-b", InetAddress.getByName("127.0.5.2")));
    }

    @AfterEach
    void close() {
        Verbs.emulated().remove(a);
        Verbs.emulated().remove(b);
        arena.close();
    }

    private Object qpAttribute(String device, Qp qp, String attribute) throws Exception {
        return server.getAttribute(JmxNames.queuePair(device, qp.qpNum()), attribute);
    }

    private long counter(String device, String name) throws Exception {
        return (Long) server.getAttribute(JmxNames.device(device), name);
    }

    @Test
    void devicesAndQpsArePublishedAndFollowTheirState() throws Exception {
        assertThat(System.getProperty(JmxNames.DEVICES_PROPERTY).split(",")).contains("live-a", "live-b");
        assertThat(server.isRegistered(JmxNames.device("live-a"))).isTrue();
        assertThat(server.getMBeanInfo(JmxNames.device("live-a")).getAttributes())
                .extracting(i -> i.getName()).contains("sent_pkts", "rcvd_pkts", "rdma_sends", "jrxe_drop_bad_icrc");

        Context ca = a.open();
        Context cb = b.open();
        Pd pa = ca.allocPd();
        Pd pb = cb.allocPd();
        Cq qa = ca.createCq(16, null);
        Cq qb = cb.createCq(16, null);
        Qp sender = pa.createQp(new QpInitAttributes(QpType.RC, qa, qa, null, new QpCapabilities(8, 8, 1, 1, 0), false));
        Qp receiver = pb.createQp(new QpInitAttributes(QpType.RC, qb, qb, null, new QpCapabilities(8, 8, 1, 1, 0), false));
        assertThat(qpAttribute("live-a", sender, "State")).isEqualTo("RESET");
        assertThat(qpAttribute("live-a", sender, "Type")).isEqualTo("RC");
        assertThat(qpAttribute("live-a", sender, "Qpn")).isEqualTo(sender.qpNum());
        assertThat(qpAttribute("live-a", sender, "Peer")).isEqualTo("");

        MemorySegment buf = arena.allocate(4096, 4096);
        Mr ma = pa.regMr(buf.asSlice(0, 2048), Access.LOCAL_WRITE);
        Mr mb = pb.regMr(buf.asSlice(2048, 2048), Access.LOCAL_WRITE);
        connect(sender, receiver.qpNum(), "127.0.5.2", SQ_PSN_A, SQ_PSN_B);
        assertThat(qpAttribute("live-a", sender, "State")).isEqualTo("RTS");
        connect(receiver, sender.qpNum(), "127.0.5.1", SQ_PSN_B, SQ_PSN_A);

        RecvWr recv = new RecvWr(1);
        recv.wrId = 7;
        recv.sgl.add(mb.iova(), 2048, mb.lkey());
        for (int i = 0; i < 3; i++) {
            receiver.postRecv(recv);
        }
        assertThat(qpAttribute("live-b", receiver, "ReceiveQueueOutstanding")).isEqualTo(3);

        SendWr send = new SendWr(1);
        send.wrId = 9;
        send.opcode = WrOpcode.SEND;
        send.flags = SendWr.SIGNALED;
        send.sgl.add(ma.iova(), 100, ma.lkey());
        sender.postSend(send);
        awaitSuccess(qb);
        awaitSuccess(qa);

        assertThat(qpAttribute("live-a", sender, "SendPsn")).as("one packet sent").isEqualTo(SQ_PSN_A + 1);
        assertThat(qpAttribute("live-a", sender, "SendQueueOutstanding")).isEqualTo(0);
        assertThat(qpAttribute("live-a", sender, "DestQpn")).isEqualTo(receiver.qpNum());
        assertThat(qpAttribute("live-a", sender, "Peer")).isEqualTo("127.0.5.2");
        assertThat(qpAttribute("live-b", receiver, "ReceivePsn")).as("one packet received").isEqualTo(SQ_PSN_A + 1);
        assertThat(qpAttribute("live-b", receiver, "ReceiveQueueOutstanding")).isEqualTo(2);
        assertThat(qpAttribute("live-b", receiver, "Summary")).isEqualTo(String.format(
                "lqpn %d rqpn %d type RC state RTS sq-psn 0x%06x rq-psn 0x%06x sq-wrs 0 rq-wrs 2 peer 127.0.5.1",
                receiver.qpNum(), sender.qpNum(), SQ_PSN_B, SQ_PSN_A + 1));
        assertThat(counter("live-a", "rdma_sends")).isEqualTo(1);
        assertThat(counter("live-b", "rdma_recvs")).isEqualTo(1);
        assertThat(counter("live-a", "sent_pkts")).isGreaterThanOrEqualTo(1);

        receiver.modify(new QpAttributes().state(QpState.ERR));
        assertThat(qpAttribute("live-b", receiver, "State")).isEqualTo("ERR");

        ObjectName senderName = JmxNames.queuePair("live-a", sender.qpNum());
        sender.close();
        assertThat(server.isRegistered(senderName)).as("a destroyed QP is unpublished").isFalse();
        ObjectName receiverName = JmxNames.queuePair("live-b", receiver.qpNum());
        assertThat(server.isRegistered(receiverName)).isTrue();
        Verbs.emulated().remove(b);
        assertThat(server.isRegistered(receiverName)).as("a closed device takes its QPs' MBeans along").isFalse();
        assertThat(server.isRegistered(JmxNames.device("live-b"))).isFalse();
        assertThat(System.getProperty(JmxNames.DEVICES_PROPERTY).split(",")).contains("live-a").doesNotContain("live-b");
    }

    @Test
    void twoDevicesOfOneNameFromTwoProvidersArePublishedApart() throws Exception {
        var other = new io.jrxe.verbs.emulated.EmulatedProvider();
        EmulatedDevice twin = other.createUdp(DeviceConfig.of("live-a", InetAddress.getByName("127.0.5.3")));
        try {
            assertThat(server.isRegistered(JmxNames.device("live-a#2"))).isTrue();
        } finally {
            other.remove(twin);
        }
        assertThat(server.isRegistered(JmxNames.device("live-a#2"))).isFalse();
        assertThat(server.isRegistered(JmxNames.device("live-a"))).isTrue();
    }

    private static void connect(Qp qp, int destQpn, String peer, int sqPsn, int rqPsn) throws Exception {
        qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(0));
        qp.modify(new QpAttributes().state(QpState.RTR).av(AddressVector.to(GidEntry.gidOf(InetAddress.getByName(peer)), 1))
                .pathMtu(Mtu.MTU_1024).destQpn(destQpn).rqPsn(rqPsn).maxDestRdAtomic(1).minRnrTimer(12));
        qp.modify(new QpAttributes().state(QpState.RTS).timeout(14).retryCnt(7).rnrRetry(7).sqPsn(sqPsn).maxRdAtomic(1));
    }

    private static void awaitSuccess(Cq cq) {
        WorkCompletion[] wc = {new WorkCompletion()};
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (cq.poll(wc) == 0) {
            assertThat(System.nanoTime()).as("a completion within 10 s").isLessThan(deadline);
            Thread.onSpinWait();
        }
        assertThat(wc[0].status()).isEqualTo(WcStatus.SUCCESS);
    }
}
