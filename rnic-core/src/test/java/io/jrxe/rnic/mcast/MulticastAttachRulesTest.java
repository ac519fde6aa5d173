package io.jrxe.rnic.mcast;

import io.jrxe.rnic.Nics;
import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicExecutor;
import io.jrxe.rnic.NicResources;
import io.jrxe.rnic.RnicException;
import io.jrxe.rnic.memory.ProtectionDomain;
import io.jrxe.rnic.qp.QueuePair;
import io.jrxe.rnic.queue.CompletionQueue;
import io.jrxe.verbs.DeviceAttributes;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.MulticastGid;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpType;
import io.jrxe.wire.port.PeerAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * ibv_attach_mcast and ibv_detach_mcast as Linux answers them for rxe: uverbs' (GID, LID) pairs, the core's
 * multicast-and-UD rule, rxe's one membership per QP and group and its three limits, and uverbs' refusal to
 * destroy a QP that is still attached. Each answer's errno is the kernel's.
 */
class MulticastAttachRulesTest {
    private static final QpCapabilities CAPS = new QpCapabilities(2, 2, 1, 1, 0);
    private static final byte[] GROUP = gid("239.1.2.3");
    private static final byte[] OTHER = gid("239.1.2.4");

    private final Nic nic = new Nic(DeviceAttributes.rxeDefaults(), "10.1.0.1");
    private final NicResources rnic = nic.rnic;

    /** A device (commands run inline) with a PD and a CQ to make QPs with. */
    private static final class Nic {
        final NicResources rnic;
        final ProtectionDomain pd;
        final CompletionQueue cq;

        Nic(DeviceAttributes attributes, String address) {
            try {
                rnic = Nics.resources(DeviceConfig.of("jrxe0", InetAddress.getByName(address)).withAttributes(attributes),
                        NicExecutor.INLINE);
                pd = rnic.allocatePd();
                cq = rnic.createCq(8, null);
            } catch (java.net.UnknownHostException | RnicException e) {
                throw new AssertionError(e);
            }
        }

        QueuePair qp(QpType type) throws RnicException {
            return Nics.createQp(rnic, pd, type, cq, cq, null, CAPS, false);
        }
    }

    private static byte[] gid(String ip) {
        try {
            return MulticastGid.of(InetAddress.getByName(ip));
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    private QueuePair qp(QpType type) throws RnicException {
        return nic.qp(type);
    }

    private static Errno errno(ThrowingCall call) {
        RnicException e = catchThrowableOfType(RnicException.class, call::run);
        assertThat(e).as("refused").isNotNull();
        assertThat(e.getMessage()).as("the message names the verb").containsAnyOf("attach", "detach", "destroy");
        return e.errno();
    }

    @FunctionalInterface
    interface ThrowingCall {
        void run() throws Exception;
    }

    @Test
    void theFirstQpOfTheDeviceMakesThePortJoinAndTheLastMakesItLeave() throws Exception {
        QueuePair a = qp(QpType.UD);
        QueuePair b = qp(QpType.UD);
        MulticastGroups m = rnic.multicast();
        assertThat(m.attach(a, GROUP, 0)).as("the first QP: the port joins").isEqualTo(PeerAddress.of("239.1.2.3"));
        assertThat(m.attach(b, GROUP, 0)).as("the second: already joined").isNull();
        MulticastGroup g = m.group(PeerAddress.of("239.1.2.3"));
        assertThat(g.size()).isEqualTo(2);
        assertThat(g.member(0)).as("in the order attached").isSameAs(a);
        assertThat(g.member(1)).isSameAs(b);
        assertThat(m.detach(a, GROUP, 0)).isNull();
        assertThat(m.detach(b, GROUP, 0)).as("the last QP left: the port leaves").isEqualTo(PeerAddress.of("239.1.2.3"));
        assertThat(m.group(PeerAddress.of("239.1.2.3"))).isNull();
        assertThat(m.groupCount()).isZero();
        assertThat(m.attachmentCount()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"RC", "UC"})
    void onlyUdQpsAttach(QpType type) throws Exception {
        QueuePair q = qp(type);
        assertThat(errno(() -> rnic.multicast().attach(q, GROUP, 0))).isEqualTo(Errno.EINVAL);
        assertThat(rnic.multicast().pairsOf(q)).isZero();
    }

    @Test
    void aGidThatIsNotMulticastIsRefused() throws Exception {
        QueuePair q = qp(QpType.UD);
        byte[] unicast = PeerAddress.of("10.1.0.9").gid().clone();
        byte[] mappedUnicastWithFf = new byte[16];
        mappedUnicastWithFf[0] = (byte) 0xFE;
        assertThat(errno(() -> rnic.multicast().attach(q, unicast, 0))).isEqualTo(Errno.EINVAL);
        assertThat(errno(() -> rnic.multicast().attach(q, mappedUnicastWithFf, 0))).isEqualTo(Errno.EINVAL);
        assertThat(errno(() -> rnic.multicast().attach(q, new byte[4], 0))).isEqualTo(Errno.EINVAL);
        assertThat(errno(() -> rnic.multicast().attach(q, null, 0))).isEqualTo(Errno.EINVAL);
    }

    @Test
    void theSamePairTwiceIsOneAttachmentAndOneDetachUndoesIt() throws Exception {
        QueuePair q = qp(QpType.UD);
        rnic.multicast().attach(q, GROUP, 7);
        assertThat(rnic.multicast().attach(q, GROUP, 7)).isNull();
        assertThat(rnic.multicast().pairsOf(q)).isEqualTo(1);
        assertThat(rnic.multicast().detach(q, GROUP, 7)).isNotNull();
        assertThat(errno(() -> rnic.multicast().detach(q, GROUP, 7))).as("nothing left to detach").isEqualTo(Errno.EINVAL);
    }

    @Test
    void twoLidsAreTwoPairsButOneMembershipSoTheSecondDetachIsRefused() throws Exception {
        QueuePair q = qp(QpType.UD);
        rnic.multicast().attach(q, GROUP, 1);
        rnic.multicast().attach(q, GROUP, 2);
        assertThat(rnic.multicast().pairsOf(q)).isEqualTo(2);
        assertThat(rnic.multicast().group(PeerAddress.of("239.1.2.3")).size()).as("rxe keeps one membership").isEqualTo(1);
        assertThat(rnic.multicast().attachmentCount()).isEqualTo(1);
        assertThat(rnic.multicast().detach(q, GROUP, 1)).as("the membership goes, and with it the group").isNotNull();
        assertThat(errno(() -> rnic.multicast().detach(q, GROUP, 2))).as("uverbs knew the pair, rxe no member")
                .isEqualTo(Errno.EINVAL);
        assertThat(rnic.multicast().pairsOf(q)).isZero();
    }

    @Test
    void aDetachNamesAnAttachedPair() throws Exception {
        QueuePair q = qp(QpType.UD);
        rnic.multicast().attach(q, GROUP, 0);
        assertThat(errno(() -> rnic.multicast().detach(q, OTHER, 0))).isEqualTo(Errno.EINVAL);
        assertThat(errno(() -> rnic.multicast().detach(q, GROUP, 1))).as("another LID").isEqualTo(Errno.EINVAL);
        assertThat(rnic.multicast().pairsOf(q)).isEqualTo(1);
    }

    @Test
    void anAttachedQpCannotBeDestroyedUntilDetached() throws Exception {
        QueuePair q = qp(QpType.UD);
        rnic.multicast().attach(q, GROUP, 0);
        assertThat(errno(() -> Nics.destroyQp(rnic, q))).isEqualTo(Errno.EBUSY);
        assertThat(rnic.qp(q.qpn())).as("still there").isSameAs(q);
        rnic.multicast().detach(q, GROUP, 0);
        Nics.destroyQp(rnic, q);
        assertThat(rnic.qp(q.qpn())).isNull();
    }

    @Test
    void maxMcastGrpLimitsTheGroupsAndZeroMeansNoMulticast() throws Exception {
        Nic two = new Nic(DeviceAttributes.builder().maxMcastGrp(2).build(), "10.1.0.1");
        QueuePair q = two.qp(QpType.UD);
        two.rnic.multicast().attach(q, GROUP, 0);
        two.rnic.multicast().attach(q, OTHER, 0);
        assertThat(errno(() -> two.rnic.multicast().attach(q, gid("239.9.9.9"), 0))).isEqualTo(Errno.ENOMEM);
        assertThat(two.rnic.multicast().attach(two.qp(QpType.UD), GROUP, 0)).as("an existing group takes more QPs").isNull();

        Nic none = new Nic(DeviceAttributes.builder().maxMcastGrp(0).build(), "10.1.0.1");
        QueuePair n = none.qp(QpType.UD);
        assertThat(errno(() -> none.rnic.multicast().attach(n, GROUP, 0))).isEqualTo(Errno.EINVAL);
    }

    @Test
    void maxMcastQpAttachLimitsOneGroupAndMaxTotalAllOfThem() throws Exception {
        Nic t = new Nic(
                DeviceAttributes.builder().maxMcastQpAttach(2).maxTotalMcastQpAttach(3).build(), "10.1.0.1");
        QueuePair a = t.qp(QpType.UD);
        QueuePair b = t.qp(QpType.UD);
        QueuePair c = t.qp(QpType.UD);
        t.rnic.multicast().attach(a, GROUP, 0);
        t.rnic.multicast().attach(b, GROUP, 0);
        assertThat(errno(() -> t.rnic.multicast().attach(c, GROUP, 0))).as("max_mcast_qp_attach").isEqualTo(Errno.ENOMEM);
        t.rnic.multicast().attach(c, OTHER, 0);
        assertThat(errno(() -> t.rnic.multicast().attach(a, OTHER, 0))).as("max_total_mcast_qp_attach").isEqualTo(Errno.ENOMEM);
        assertThat(t.rnic.multicast().group(PeerAddress.of("239.1.2.4")).size()).isEqualTo(1);
        t.rnic.multicast().detach(b, GROUP, 0);
        assertThat(t.rnic.multicast().attach(a, OTHER, 0)).as("room again after a detach").isNull();
    }

    @Test
    void aDeviceReceivesGroupsOfItsOwnFamily() throws Exception {
        QueuePair q = qp(QpType.UD);
        assertThat(errno(() -> rnic.multicast().attach(q, gid("ff0e::1:2"), 0))).isEqualTo(Errno.EINVAL);
        Nic v6 = new Nic(DeviceAttributes.rxeDefaults(), "fd00::1");
        QueuePair q6 = v6.qp(QpType.UD);
        assertThat(v6.rnic.multicast().attach(q6, gid("ff0e::1:2"), 0)).isEqualTo(PeerAddress.of("ff0e::1:2"));
        assertThat(errno(() -> v6.rnic.multicast().attach(q6, GROUP, 0))).isEqualTo(Errno.EINVAL);
    }
}
