package io.jrxe.verbs.udp;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.Nic;
import io.jrxe.rnic.device.Counter;
import io.jrxe.rnic.device.Counters;
import io.jrxe.rnic.engine.MadDropReason;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.verbs.facade.Verbs;
import io.jrxe.wire.cm.MadHeaderFlyweight;
import io.jrxe.wire.pma.ClassPortInfoFlyweight;
import io.jrxe.wire.pma.PerfMgmt;
import io.jrxe.wire.pma.PmaAttribute;
import io.jrxe.wire.pma.PortCountersExtendedFlyweight;
import io.jrxe.wire.pma.PortCountersFlyweight;
import io.jrxe.wire.port.PeerAddress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * QP1 of a jrxe port answers PerfMgmt Gets from another jrxe port over UDP on loopback: the counters in the GetResp
 * are the target's own at the time it answered, an unknown attribute and a Set come back with the IBTA status, and
 * a Trap is dropped and counted, while the CM's agent on the same QP1 keeps its own class.
 */
class PerfMgmtOnUdpTest {
    /** The bytes of one MAD packet from its IPv4 header to its ICRC: IP, UDP, BTH, DETH, the MAD, ICRC. */
    private static final int MAD_PACKET_BYTES = 20 + 8 + 12 + 8 + 256 + 4;

    private EmulatedDevice a;
    private EmulatedDevice b;
    private PeerAddress bAddress;

    @BeforeEach
    void devices() throws Exception {
        a = Verbs.emulated().createUdp(DeviceConfig.of("pma-a", InetAddress.getByName("127.0.74.1")));
        b = Verbs.emulated().createUdp(DeviceConfig.of("pma-b", InetAddress.getByName("127.0.74.2")));
        bAddress = PeerAddress.of("127.0.74.2");
    }

    @AfterEach
    void close() {
        Verbs.emulated().remove(a);
        Verbs.emulated().remove(b);
    }

    private ByteBuffer ask(int method, int attributeId) throws Exception {
        Nic nic = a.nic();
        CompletableFuture<ByteBuffer> answer = new CompletableFuture<>();
        nic.executor().call(() -> nic.pma().request(bAddress, method, attributeId, 1, mad -> {
            ByteBuffer copy = ByteBuffer.allocate(MadHeaderFlyweight.MAD_LENGTH);
            copy.put(0, mad, 0, MadHeaderFlyweight.MAD_LENGTH);
            answer.complete(copy);
        }));
        return answer.get(10, TimeUnit.SECONDS);
    }

    private Counters counters(EmulatedDevice d) {
        return d.nic().resources().counters();
    }

    /**
     * The device's counters once its NIC thread has finished what it was doing: the answer reaches the asker while
     * the target's thread may still be in the task that sent it, and its counts are written by that thread.
     */
    private Counters settledCounters(EmulatedDevice d) throws Exception {
        d.nic().executor().call(() -> null);
        return counters(d);
    }

    @Test
    void portCountersAreTheTargetsCountersWhenItAnswered() throws Exception {
        for (int i = 0; i < 3; i++) {
            ask(MadHeaderFlyweight.METHOD_GET, PmaAttribute.CLASS_PORT_INFO.id()); // traffic both ways
        }
        ByteBuffer mad = ask(MadHeaderFlyweight.METHOD_GET, PmaAttribute.PORT_COUNTERS.id());
        MadHeaderFlyweight h = new MadHeaderFlyweight().wrap(mad, 0);
        assertThat(h.method()).isEqualTo(0x81);
        assertThat(h.status()).isZero();
        assertThat(h.managementClass()).isEqualTo(PerfMgmt.MGMT_CLASS);
        assertThat(h.attributeId()).isEqualTo(0x0012);
        PortCountersFlyweight c = new PortCountersFlyweight().wrap(mad, PerfMgmt.DATA_OFFSET);
        Counters target = settledCounters(b);
        // The answer itself is the one packet b sent after filling it in. The counts are at least this test's own
        // packets: whatever else reached or left the device is counted too, in the answer as in the device.
        long sentBefore = target.get(Counter.SENT_PKTS) - 1;
        assertThat(sentBefore).isGreaterThanOrEqualTo(3);
        assertThat(c.get(PortCountersFlyweight.XMIT_PACKETS)).isEqualTo(sentBefore);
        assertThat(c.get(PortCountersFlyweight.RCV_PACKETS)).isEqualTo(target.get(Counter.RCVD_PKTS)).isGreaterThanOrEqualTo(4);
        assertThat(c.get(PortCountersFlyweight.XMIT_DATA)).isEqualTo((target.get(Counter.SENT_BYTES) - MAD_PACKET_BYTES) / 4)
                .isGreaterThanOrEqualTo(3L * MAD_PACKET_BYTES / 4);
        assertThat(c.get(PortCountersFlyweight.RCV_DATA)).isEqualTo(target.get(Counter.RCVD_BYTES) / 4)
                .isGreaterThanOrEqualTo(4L * MAD_PACKET_BYTES / 4);
        assertThat(c.get(PortCountersFlyweight.PORT_SELECT)).as("echoed").isEqualTo(1);
        assertThat(c.get(PortCountersFlyweight.SYMBOL_ERRORS)).isZero();
        assertThat(settledCounters(a).get(Counter.RCVD_PKTS)).as("a got every answer").isGreaterThanOrEqualTo(4);

        ByteBuffer ext = ask(MadHeaderFlyweight.METHOD_GET, PmaAttribute.PORT_COUNTERS_EXTENDED.id());
        settledCounters(b);
        PortCountersExtendedFlyweight e = new PortCountersExtendedFlyweight().wrap(ext, PerfMgmt.DATA_OFFSET);
        assertThat(e.get(PortCountersExtendedFlyweight.XMIT_PACKETS)).isEqualTo(target.get(Counter.SENT_PKTS) - 1);
        assertThat(e.get(PortCountersExtendedFlyweight.RCV_PACKETS)).isEqualTo(target.get(Counter.RCVD_PKTS));
        assertThat(e.get(PortCountersExtendedFlyweight.XMIT_DATA)).isEqualTo((target.get(Counter.SENT_BYTES) - MAD_PACKET_BYTES) >>> 2);
        assertThat(e.get(PortCountersExtendedFlyweight.RCV_DATA)).isEqualTo(target.get(Counter.RCVD_BYTES) >>> 2);
        assertThat(e.get(PortCountersExtendedFlyweight.UNICAST_XMIT_PACKETS)).isZero();
        assertThat(b.nic().pma().answered()).isEqualTo(5);
    }

    @Test
    void classPortInfoAnnouncesTheExtendedCounters() throws Exception {
        ByteBuffer mad = ask(MadHeaderFlyweight.METHOD_GET, PmaAttribute.CLASS_PORT_INFO.id());
        ClassPortInfoFlyweight cpi = new ClassPortInfoFlyweight().wrap(mad, PerfMgmt.DATA_OFFSET);
        assertThat(cpi.capabilityMask()).isEqualTo(PerfMgmt.CAPABILITY_EXTENDED_WIDTH);
        assertThat(cpi.baseVersion()).isEqualTo(1);
        assertThat(cpi.classVersion()).isEqualTo(1);
    }

    @Test
    void unsupportedRequestsAreAnsweredWithTheirStatusAndTrapsAreDropped() throws Exception {
        ByteBuffer samples = ask(MadHeaderFlyweight.METHOD_GET, 0x0010);
        MadHeaderFlyweight h = new MadHeaderFlyweight().wrap(samples, 0);
        assertThat(h.method()).isEqualTo(0x81);
        assertThat(h.status()).isEqualTo(PerfMgmt.STATUS_UNSUPPORTED_METHOD_ATTRIBUTE);
        ByteBuffer set = ask(MadHeaderFlyweight.METHOD_SET, PmaAttribute.PORT_COUNTERS.id());
        assertThat(new MadHeaderFlyweight().wrap(set, 0).status()).isEqualTo(PerfMgmt.STATUS_UNSUPPORTED_METHOD);
        assertThat(b.nic().pma().unsupported()).isEqualTo(2);

        Nic nic = a.nic();
        nic.executor().call(() -> nic.pma().request(bAddress, 0x05, PmaAttribute.PORT_COUNTERS.id(), 1, mad -> { }));
        // A Get after the Trap: when its answer is back, b has handled the Trap before it.
        ask(MadHeaderFlyweight.METHOD_GET, PmaAttribute.CLASS_PORT_INFO.id());
        assertThat(b.nic().pma().dropped()).isEqualTo(1);
        assertThat(b.nic().pma().answered()).isEqualTo(1);
        assertThat(b.nic().cm().gsi().counters().dropped(MadDropReason.UNKNOWN_CLASS)).isZero();
    }

    /**
     * Linux 7.2's rxe answers with a blank MAD header and the attribute in place. a takes such a MAD from c as the
     * answer to the one Get it waits for from c; with nothing waiting, QP1 drops it as of a bad base version.
     */
    @Test
    void aBlankHeadedAnswerIsTakenOnlyWhileAGetWaitsOnItsSender() throws Exception {
        EmulatedDevice c = Verbs.emulated().createUdp(DeviceConfig.of("pma-c", InetAddress.getByName("127.0.74.3")));
        try {
            Nic nicC = c.nic();
            nicC.executor().call(() -> {
                nicC.cm().gsi().register(PerfMgmt.MGMT_CLASS, null);   // c asks nothing of its own PMA: a's Get stays unanswered
                return null;
            });
            Nic nicA = a.nic();
            CompletableFuture<ByteBuffer> answer = new CompletableFuture<>();
            nicA.executor().call(() -> nicA.pma().query(PeerAddress.of("127.0.74.3"), PmaAttribute.CLASS_PORT_INFO, 1, mad -> {
                ByteBuffer copy = ByteBuffer.allocate(MadHeaderFlyweight.MAD_LENGTH);
                copy.put(0, mad, 0, MadHeaderFlyweight.MAD_LENGTH);
                answer.complete(copy);
            }));
            awaitGsiDrops(c, MadDropReason.UNKNOWN_CLASS);

            ByteBuffer blank = ByteBuffer.allocate(MadHeaderFlyweight.MAD_LENGTH);
            new ClassPortInfoFlyweight().wrap(blank, PerfMgmt.DATA_OFFSET).set(0, 0, PerfMgmt.CAPABILITY_EXTENDED_WIDTH, 0);
            PeerAddress aAddress = PeerAddress.of("127.0.74.1");
            nicC.executor().call(() -> {
                nicC.cm().gsi().send(blank, aAddress);
                return null;
            });
            ByteBuffer taken = answer.get(10, TimeUnit.SECONDS);
            assertThat(new MadHeaderFlyweight().wrap(taken, 0).isBlank()).isTrue();
            assertThat(new ClassPortInfoFlyweight().wrap(taken, PerfMgmt.DATA_OFFSET).capabilityMask())
                    .isEqualTo(PerfMgmt.CAPABILITY_EXTENDED_WIDTH);
            assertThat(nicA.pma().blankAnswers()).isEqualTo(1);

            nicC.executor().call(() -> {
                nicC.cm().gsi().send(blank, aAddress);
                return null;
            });
            awaitGsiDrops(a, MadDropReason.BAD_BASE_VERSION);
            assertThat(nicA.pma().blankAnswers()).as("nothing waited for the second").isEqualTo(1);
        } finally {
            Verbs.emulated().remove(c);
        }
    }

    /** Waits (at most 10 s) until {@code d}'s QP1 has dropped one MAD for {@code reason}, read on its NIC thread. */
    private static void awaitGsiDrops(EmulatedDevice d, MadDropReason reason) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        long drops = 0;
        while (System.nanoTime() < deadline
                && (drops = d.nic().executor().call(() -> d.nic().cm().gsi().counters().dropped(reason))) < 1) {
            Thread.onSpinWait();
        }
        assertThat(drops).as("%s drops at %s", reason, d.nic()).isEqualTo(1);
    }
}
