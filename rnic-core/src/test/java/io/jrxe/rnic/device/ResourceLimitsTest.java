package io.jrxe.rnic.device;

import io.jrxe.rnic.Nics;
import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicExecutor;
import io.jrxe.rnic.NicResources;
import io.jrxe.rnic.RnicException;
import io.jrxe.rnic.memory.MptEntry;
import io.jrxe.rnic.memory.ProtectionDomain;
import io.jrxe.rnic.qp.QueuePair;
import io.jrxe.rnic.queue.CompletionQueue;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.DeviceAttributes;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Every table of a tiny device runs out, and the refusal (ENOMEM, as rxe's pools answer) says
 * which limit, by its ibv_devinfo name, and its value; freeing one makes room again.
 */
class ResourceLimitsTest {
    private static final DeviceAttributes TINY = DeviceAttributes.builder()
            .maxQp(4).maxMr(3).maxMw(2).maxPd(2).maxCq(3).maxSrq(1).maxAh(2).maxCqe(16)
            .maxQpWr(8).maxSge(2).maxInlineData(64).build();
    private static final QpCapabilities CAPS = new QpCapabilities(2, 2, 1, 1, 0);

    private final Arena arena = Arena.ofConfined();
    private final NicResources rnic;

    ResourceLimitsTest() throws Exception {
        rnic = Nics.resources(DeviceConfig.of("jrxe0", InetAddress.getByName("127.0.0.1")).withAttributes(TINY)
                .withMttEntries(64), NicExecutor.INLINE);
    }

    @AfterEach
    void close() {
        arena.close();
    }

    private static RnicException exhausted(ThrowingCall call, String message) {
        RnicException e = catchThrowableOfType(RnicException.class, call::run);
        assertThat(e).as("expected: " + message).isNotNull();
        assertThat(e.errno()).isEqualTo(Errno.ENOMEM);
        assertThat(e.getMessage()).isEqualTo(message);
        return e;
    }

    @FunctionalInterface
    interface ThrowingCall {
        void run() throws Exception;
    }

    @Test
    void pds() throws RnicException {
        ProtectionDomain first = rnic.allocatePd();
        rnic.allocatePd();
        exhausted(rnic::allocatePd, "cannot create another PD: the device allows max_pd 2 and all are in use");
        rnic.deallocatePd(first);
        rnic.allocatePd();
    }

    @Test
    void cqsAndTheirSize() throws RnicException {
        CompletionQueue first = rnic.createCq(16, null);
        rnic.createCq(1, null);
        rnic.createCq(8, null);
        exhausted(() -> rnic.createCq(4, null), "cannot create another CQ: the device allows max_cq 3 and all are in use");
        rnic.destroyCq(first);
        for (int entries : new int[] {17, 0, -1}) {
            RnicException e = catchThrowableOfType(RnicException.class, () -> rnic.createCq(entries, null));
            assertThat(e.errno()).isEqualTo(Errno.EINVAL);
            assertThat(e.getMessage()).isEqualTo("a CQ holds 1..16 entries (max_cqe), not " + entries);
        }
        assertThat(rnic.createCq(16, null).capacity()).isEqualTo(16);
    }

    @Test
    void qps() throws RnicException {
        ProtectionDomain pd = rnic.allocatePd();
        CompletionQueue cq = rnic.createCq(16, null);
        QueuePair first = Nics.createQp(rnic, pd, QpType.RC, cq, cq, null, CAPS, false);
        for (int i = 1; i < 4; i++) {
            Nics.createQp(rnic, pd, QpType.values()[i % 3], cq, cq, null, CAPS, false);
        }
        assertThat(rnic.qpCount()).isEqualTo(4);
        exhausted(() -> Nics.createQp(rnic, pd, QpType.UD, cq, cq, null, CAPS, false),
                "cannot create another QP: the device allows max_qp 4 and all are in use");
        Nics.destroyQp(rnic, first);
        QueuePair again = Nics.createQp(rnic, pd, QpType.UD, cq, cq, null, CAPS, false);
        assertThat(again.qpn()).as("QP numbers are not reused at once").isNotEqualTo(first.qpn());
        assertThat(rnic.qp(again.qpn())).isSameAs(again);
        assertThat(rnic.qp(first.qpn())).isNull();
    }

    @Test
    void qpCapabilitiesWithinTheDevicesLimits() throws RnicException {
        ProtectionDomain pd = rnic.allocatePd();
        CompletionQueue cq = rnic.createCq(16, null);
        record Bad(QpCapabilities caps, String message) { }
        for (Bad bad : new Bad[] {
            new Bad(new QpCapabilities(9, 1, 1, 1, 0), "QP capability max_send_wr 9 is out of range 1..8 (the device's max_qp_wr)"),
            new Bad(new QpCapabilities(0, 1, 1, 1, 0), "QP capability max_send_wr 0 is out of range 1..8 (the device's max_qp_wr)"),
            new Bad(new QpCapabilities(1, 9, 1, 1, 0), "QP capability max_recv_wr 9 is out of range 1..8 (the device's max_qp_wr)"),
            new Bad(new QpCapabilities(1, 1, 3, 1, 0), "QP capability max_send_sge 3 is out of range 0..2 (the device's max_sge)"),
            new Bad(new QpCapabilities(1, 1, 1, 3, 0), "QP capability max_recv_sge 3 is out of range 0..2 (the device's max_sge)"),
            new Bad(new QpCapabilities(1, 1, 1, 1, 65),
                    "QP capability max_inline_data 65 is out of range 0..64 (the device's max_inline_data)"),
        }) {
            RnicException e = catchThrowableOfType(RnicException.class,
                    () -> Nics.createQp(rnic, pd, QpType.RC, cq, cq, null, bad.caps(), false));
            assertThat(e.errno()).isEqualTo(Errno.EINVAL);
            assertThat(e.getMessage()).isEqualTo(bad.message());
        }
        assertThat(rnic.qpCount()).isZero();
        assertThat(pd.holders().isEmpty()).isTrue();
    }

    @Test
    void srqs() throws RnicException {
        ProtectionDomain pd = rnic.allocatePd();
        var srq = rnic.createSrq(pd, 4, 1);
        exhausted(() -> rnic.createSrq(pd, 4, 1), "cannot create another SRQ: the device allows max_srq 1 and all are in use");
        rnic.destroySrq(srq);
        rnic.createSrq(pd, 4, 1);
    }

    @Test
    void ahs() throws RnicException {
        ProtectionDomain pd = rnic.allocatePd();
        AddressVector av = AddressVector.to(GidEntry.gidOf(InetAddress.getLoopbackAddress()), 1);
        var first = rnic.createAh(pd, av);
        rnic.createAh(pd, av);
        exhausted(() -> rnic.createAh(pd, av), "cannot create another AH: the device allows max_ah 2 and all are in use");
        rnic.destroyAh(first);
        assertThat(rnic.ah(first.handle())).isNull();
        var second = rnic.createAh(pd, av);
        rnic.destroyAh(second);
        RnicException badGid = catchThrowableOfType(RnicException.class,
                () -> rnic.createAh(pd, AddressVector.to(av.dgid(), 2)));
        assertThat(badGid.errno()).isEqualTo(Errno.EINVAL);
        assertThat(badGid.getMessage()).isEqualTo("AH source GID index 2 is out of range 0..1");
    }

    @Test
    void mrs() throws RnicException {
        ProtectionDomain pd = rnic.allocatePd();
        MptEntry first = rnic.memory().registerMr(pd, arena.allocate(4096, 4096), 0, Access.LOCAL_WRITE);
        rnic.memory().registerMr(pd, arena.allocate(4096, 4096), 0, Access.LOCAL_WRITE);
        rnic.memory().registerMr(pd, arena.allocate(4096, 4096), 0, Access.LOCAL_WRITE);
        exhausted(() -> rnic.memory().registerMr(pd, arena.allocate(4096, 4096), 0, Access.LOCAL_WRITE),
                "MR table is full: the device allows max_mr 3 MRs");
        assertThat(rnic.memory().mtt().usedEntries()).as("nothing taken by the refused one").isEqualTo(3);
        rnic.memory().deregisterMr(first.key());
        rnic.memory().registerMr(pd, arena.allocate(4096, 4096), 0, Access.LOCAL_WRITE);
    }

    @Test
    void mws() throws RnicException {
        ProtectionDomain pd = rnic.allocatePd();
        MptEntry first = rnic.memory().allocateMw(pd, 1);
        rnic.memory().allocateMw(pd, 2);
        exhausted(() -> rnic.memory().allocateMw(pd, 2), "memory window table is full: the device allows max_mw 2");
        assertThat(rnic.memory().mwCount()).isEqualTo(2);
        rnic.memory().deallocateMw(first.key());
        rnic.memory().allocateMw(pd, 1);
    }

    @Test
    void mttEntries() throws RnicException {
        ProtectionDomain pd = rnic.allocatePd();
        rnic.memory().registerMr(pd, arena.allocate(60 * 4096L, 4096), 0, Access.LOCAL_WRITE);
        exhausted(() -> rnic.memory().registerMr(pd, arena.allocate(5 * 4096L, 4096), 0, Access.LOCAL_WRITE),
                "registering 20 KiB needs 5 MTT entries, but only 4 of 64 are free (512 bytes of translation memory)");
        assertThat(rnic.memory().mrCount()).isEqualTo(1);
    }
}
