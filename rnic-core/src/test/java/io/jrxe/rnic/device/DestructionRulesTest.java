package io.jrxe.rnic.device;

import io.jrxe.rnic.Nics;
import io.jrxe.rnic.AddressHandle;
import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicExecutor;
import io.jrxe.rnic.NicResources;
import io.jrxe.rnic.RnicException;
import io.jrxe.rnic.memory.AccessError;
import io.jrxe.rnic.memory.MptEntry;
import io.jrxe.rnic.memory.ProtectionDomain;
import io.jrxe.rnic.qp.QueuePair;
import io.jrxe.rnic.queue.CompletionQueue;
import io.jrxe.rnic.queue.SharedReceiveQueue;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
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
 * A resource still used by another cannot be destroyed (EBUSY, naming every holder); once the
 * holders are gone it can; and a destroyed object, or another device's, is refused wherever it
 * is passed again.
 */
class DestructionRulesTest {
    private static final QpCapabilities CAPS = new QpCapabilities(2, 2, 1, 1, 0);

    private final Arena arena = Arena.ofConfined();
    private final NicResources rnic;

    DestructionRulesTest() throws Exception {
        rnic = Nics.resources(DeviceConfig.of("jrxe0", InetAddress.getByName("127.0.0.1")), NicExecutor.INLINE);
    }

    @AfterEach
    void close() {
        arena.close();
    }

    @FunctionalInterface
    interface ThrowingCall {
        void run() throws Exception;
    }

    private static RnicException refused(ThrowingCall call) {
        RnicException e = catchThrowableOfType(RnicException.class, call::run);
        assertThat(e).as("must be refused").isNotNull();
        return e;
    }

    private static void busy(ThrowingCall call, String message) {
        RnicException e = refused(call);
        assertThat(e.errno()).isEqualTo(Errno.EBUSY);
        assertThat(e.getMessage()).isEqualTo(message);
    }

    private static void gone(ThrowingCall call, String message) {
        RnicException e = refused(call);
        assertThat(e.errno()).isEqualTo(Errno.EINVAL);
        assertThat(e.getMessage()).isEqualTo(message);
    }

    @Test
    void aPdIsHeldByItsMrsQpsSrqsAhsAndMws() throws RnicException {
        ProtectionDomain pd = rnic.allocatePd();
        CompletionQueue cq = rnic.createCq(8, null);
        MptEntry mr = rnic.memory().registerMr(pd, arena.allocate(4096, 4096), 0, Access.LOCAL_WRITE);
        int mrKey = mr.key();
        QueuePair qp = Nics.createQp(rnic, pd, QpType.RC, cq, cq, null, CAPS, false);
        SharedReceiveQueue srq = rnic.createSrq(pd, 4, 1);
        AddressHandle ah = rnic.createAh(pd, AddressVector.to(GidEntry.gidOf(InetAddress.getLoopbackAddress()), 1));
        MptEntry mw = rnic.memory().allocateMw(pd, 1);
        int mwKey = mw.key();

        busy(() -> rnic.deallocatePd(pd), String.format("cannot destroy %s: still in use by MR key 0x%08x, %s, %s, %s, "
                + "MW type 1 key 0x%08x", pd, mrKey, qp, srq, ah, mwKey));
        assertThat(qp.toString()).isEqualTo(String.format("RC QP 0x%06x", qp.qpn()));
        assertThat(srq.toString()).isEqualTo("SRQ " + srq.handle());
        assertThat(ah.toString()).isEqualTo("AH " + ah.handle());

        rnic.memory().deregisterMr(mrKey);
        Nics.destroyQp(rnic, qp);
        rnic.destroySrq(srq);
        busy(() -> rnic.deallocatePd(pd), String.format("cannot destroy %s: still in use by %s, MW type 1 key 0x%08x",
                pd, ah, mwKey));
        rnic.destroyAh(ah);
        rnic.memory().deallocateMw(mwKey);
        rnic.deallocatePd(pd);

        gone(() -> rnic.deallocatePd(pd), pd + " does not belong to device jrxe0 or was destroyed");
        gone(() -> rnic.createSrq(pd, 4, 1), pd + " does not belong to device jrxe0 or was destroyed");
        gone(() -> Nics.createQp(rnic, pd, QpType.UD, cq, cq, null, CAPS, false), pd + " does not belong to device jrxe0 or was destroyed");
        gone(() -> Nics.destroyQp(rnic, qp), qp + " does not belong to device jrxe0 or was destroyed");
        gone(() -> rnic.destroySrq(srq), srq + " does not belong to device jrxe0 or was destroyed");
        gone(() -> rnic.destroyAh(ah), ah + " does not belong to device jrxe0 or was destroyed");
        gone(() -> rnic.memory().deregisterMr(mrKey),
                String.format("deregister MR 0x%08x: %s", mrKey, AccessError.WRONG_VARIANT.description()));
        gone(() -> rnic.memory().deallocateMw(mwKey),
                String.format("deallocate MW 0x%08x: %s", mwKey, AccessError.WRONG_VARIANT.description()));
    }

    @Test
    void aCqIsHeldByTheQpsThatCompleteIntoIt() throws RnicException {
        ProtectionDomain pd = rnic.allocatePd();
        CompletionQueue sendCq = rnic.createCq(8, null);
        CompletionQueue recvCq = rnic.createCq(8, null);
        QueuePair a = Nics.createQp(rnic, pd, QpType.RC, sendCq, recvCq, null, CAPS, false);
        QueuePair b = Nics.createQp(rnic, pd, QpType.UD, recvCq, recvCq, null, CAPS, false);

        busy(() -> rnic.destroyCq(sendCq), String.format("cannot destroy %s: still in use by %s", sendCq, a));
        busy(() -> rnic.destroyCq(recvCq), String.format("cannot destroy %s: still in use by %s, %s", recvCq, a, b));
        Nics.destroyQp(rnic, a);
        rnic.destroyCq(sendCq);
        busy(() -> rnic.destroyCq(recvCq), String.format("cannot destroy %s: still in use by %s", recvCq, b));
        Nics.destroyQp(rnic, b);
        rnic.destroyCq(recvCq);

        gone(() -> rnic.destroyCq(recvCq), recvCq + " does not belong to device jrxe0 or was destroyed");
        gone(() -> Nics.createQp(rnic, pd, QpType.RC, sendCq, sendCq, null, CAPS, false),
                sendCq + " does not belong to device jrxe0 or was destroyed");
    }

    @Test
    void anSrqIsHeldByItsQps() throws RnicException {
        ProtectionDomain pd = rnic.allocatePd();
        CompletionQueue cq = rnic.createCq(8, null);
        SharedReceiveQueue srq = rnic.createSrq(pd, 4, 1);
        QueuePair qp = Nics.createQp(rnic, pd, QpType.RC, cq, cq, srq, new QpCapabilities(2, 0, 1, 0, 0), false);
        assertThat(qp.recvQueue()).as("receives come from the SRQ").isNull();

        busy(() -> rnic.destroySrq(srq), String.format("cannot destroy %s: still in use by %s", srq, qp));
        busy(() -> rnic.deallocatePd(pd), String.format("cannot destroy %s: still in use by %s, %s", pd, srq, qp));
        Nics.destroyQp(rnic, qp);
        rnic.destroySrq(srq);
        rnic.destroyCq(cq);
        rnic.deallocatePd(pd);
        gone(() -> rnic.destroySrq(srq), srq + " does not belong to device jrxe0 or was destroyed");
    }

    @Test
    void aLongListOfHoldersIsCutAfterEight() throws RnicException {
        ProtectionDomain pd = rnic.allocatePd();
        CompletionQueue cq = rnic.createCq(8, null);
        StringBuilder firstEight = new StringBuilder();
        for (int i = 0; i < 11; i++) {
            QueuePair qp = Nics.createQp(rnic, pd, QpType.UD, cq, cq, null, CAPS, false);
            if (i < 8) {
                firstEight.append(i == 0 ? "" : ", ").append(qp);
            }
        }
        busy(() -> rnic.destroyCq(cq), "cannot destroy " + cq + ": still in use by " + firstEight + " and 3 more");
    }

    @Test
    void anotherDevicesObjectsAreRefused() throws Exception {
        NicResources other = Nics.resources(DeviceConfig.of("jrxe1", InetAddress.getByName("127.0.0.2")), NicExecutor.INLINE);
        ProtectionDomain theirs = other.allocatePd();
        rnic.allocatePd(); // the same handle number here
        CompletionQueue theirCq = other.createCq(4, null);
        gone(() -> rnic.deallocatePd(theirs), theirs + " does not belong to device jrxe0 or was destroyed");
        gone(() -> rnic.destroyCq(theirCq), theirCq + " does not belong to device jrxe0 or was destroyed");
    }

    @Test
    void destroyingAQpTakesItOutOfDispatch() throws RnicException {
        ProtectionDomain pd = rnic.allocatePd();
        CompletionQueue cq = rnic.createCq(8, null);
        QueuePair qp = Nics.createQp(rnic, pd, QpType.UC, cq, cq, null, CAPS, false);
        assertThat(rnic.qp(qp.qpn())).isSameAs(qp);
        assertThat(qp.qpn()).isEqualTo(NicResources.FIRST_QPN);
        Nics.destroyQp(rnic, qp);
        assertThat(rnic.qp(qp.qpn())).isNull();
        assertThat(rnic.qpCount()).isZero();
        assertThat(pd.holders().isEmpty()).isTrue();
        assertThat(cq.holders().isEmpty()).isTrue();
    }
}
