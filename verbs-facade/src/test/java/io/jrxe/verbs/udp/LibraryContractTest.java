package io.jrxe.verbs.udp;

import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.Ah;
import io.jrxe.verbs.AsyncEvent;
import io.jrxe.verbs.CompChannel;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Mw;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpConnect;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpPeer;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.Srq;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.verbs.emulated.EmulatedExtension;
import io.jrxe.verbs.facade.Verbs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The library's contract with a program, on a device on real UDP: every close is idempotent and children close
 * first or the close is refused by name; a closed device's objects refuse every verb with ENODEV; memory the NIC
 * cannot use is refused at registration; misuse is a VerbsException with an errno and the rule, never a JDK
 * exception; a refused request's rule is named on both sides.
 */
class LibraryContractTest {
    private final Arena arena = Arena.ofShared();
    private EmulatedDevice device;
    private EmulatedDevice peer;

    @AfterEach
    void close() {
        if (device != null) {
            Verbs.emulated().remove(device);
        }
        if (peer != null) {
            Verbs.emulated().remove(peer);
        }
        arena.close();
    }

    private static Errno errnoOf(Executable call) {
        try {
            call.execute();
        } catch (VerbsException e) {
            return e.errno();
        } catch (Throwable t) {
            throw new AssertionError("a VerbsException was expected, not " + t, t);
        }
        throw new AssertionError("the call was not refused");
    }

    @Test
    void everyCloseIsIdempotentAndChildrenCloseFirstOrTheCloseIsRefusedByName() throws Exception {
        device = Verbs.emulated().createUdp("contract-a", InetAddress.getByName("127.0.46.1"));
        Context ctx = device.open();
        Pd pd = ctx.allocPd();
        CompChannel channel = ctx.createCompChannel();
        Cq cq = ctx.createCq(8, channel);
        Mr mr = pd.regMr(arena.allocate(4096, 4096), Access.LOCAL_WRITE);
        Mw mw = pd.allocMw(2);
        Srq srq = pd.createSrq(4, 1);
        Ah ah = pd.createAh(AddressVector.to(ctx.queryGid(1, 1).gid(), 1));
        Qp qp = pd.createQp(QpInitAttributes.builder(QpType.RC).cq(cq).build());

        assertThat(errnoOf(pd::close)).as("a PD with a QP, an MR, ...").isEqualTo(Errno.EBUSY);
        assertThat(errnoOf(cq::close)).as("a CQ a QP uses").isEqualTo(Errno.EBUSY);
        for (AutoCloseable o : new AutoCloseable[] {qp, qp, ah, ah, srq, srq, mw, mw, mr, mr, pd, pd, cq, cq, channel,
            channel, ctx, ctx}) {
            o.close();
        }
        assertThat(errnoOf(ctx::allocPd)).as("a closed context makes nothing").isEqualTo(Errno.ENODEV);
    }

    @Test
    void aContextClosesWhatWasMadeFromItChildrenFirst() throws Exception {
        device = Verbs.emulated().createUdp("contract-g", InetAddress.getByName("127.0.46.7"));
        Context ctx = device.open();
        Pd pd = ctx.allocPd();
        Cq cq = ctx.createCq(8, ctx.createCompChannel());
        Mr mr = pd.regMr(arena.allocate(4096, 4096), Access.LOCAL_WRITE);
        pd.createQp(QpInitAttributes.builder(QpType.RC).cq(cq).build());
        ctx.close();
        Context again = device.open();
        assertThat(again.counters()).as("a new context of the same device works").isNotEmpty();
        assertThat(errnoOf(() -> mr.rereg(null, null, Access.LOCAL_WRITE | Access.REMOTE_WRITE)))
                .as("the MR went with its context").isEqualTo(Errno.EINVAL);
        again.close();
    }

    @Test
    void aClosedDevicesObjectsRefuseEveryVerbAndCloseQuietly() throws Exception {
        ReadyUd ud = readyUd("contract-b", "127.0.46.2", 4);
        Context ctx = ud.ctx();
        Pd pd = ud.pd();
        Cq cq = ud.cq();
        Qp qp = ud.qp();
        MemorySegment memory = arena.allocate(4096, 4096);
        device.close();

        assertThat(errnoOf(() -> pd.regMr(memory, Access.LOCAL_WRITE))).isEqualTo(Errno.ENODEV);
        assertThat(errnoOf(ctx::allocPd)).isEqualTo(Errno.ENODEV);
        SendWr wr = new SendWr(1);
        wr.opcode = WrOpcode.SEND;
        assertThat(errnoOf(() -> qp.postSend(wr))).isEqualTo(Errno.ENODEV);
        assertThat(errnoOf(() -> qp.postRecv(new RecvWr(1)))).isEqualTo(Errno.ENODEV);
        assertThat(cq.poll(new WorkCompletion[] {new WorkCompletion()})).isZero();
        qp.close();
        cq.close();
        pd.close();
        ctx.close();
        device.close();
    }

    @Test
    void memoryTheNicCannotUseIsRefusedAtRegistration() throws Exception {
        device = Verbs.emulated().createUdp("contract-c", InetAddress.getByName("127.0.46.3"));
        Pd pd = device.open().allocPd();
        try (Arena confined = Arena.ofConfined()) {
            MemorySegment mine = confined.allocate(4096);
            assertThatThrownBy(() -> pd.regMr(mine, Access.LOCAL_WRITE)).isInstanceOf(VerbsException.class)
                    .hasMessageContaining("confined").hasMessageContaining("Arena.ofShared()")
                    .satisfies(e -> assertThat(((VerbsException) e).errno()).isEqualTo(Errno.EINVAL));
        }
        Arena gone = Arena.ofShared();
        MemorySegment freed = gone.allocate(4096);
        gone.close();
        assertThatThrownBy(() -> pd.regMr(freed, Access.LOCAL_WRITE)).isInstanceOf(VerbsException.class)
                .hasMessageContaining("freed");
    }

    @Test
    void aScatterGatherListBeyondTheQpsLimitIsEinvalNotAnArrayIndexException() throws Exception {
        Qp qp = readyUd("contract-d", "127.0.46.4", 1).qp();
        SendWr wr = new SendWr(1);
        wr.opcode = WrOpcode.SEND;
        wr.sgl.add(0x1000, 8, 1);
        wr.sgl.add(0x2000, 8, 1);
        assertThatThrownBy(() -> qp.postSend(wr)).isInstanceOf(VerbsException.class)
                .hasMessageContaining("2 SGEs exceed the QP's max_send_sge 1");
    }

    @Test
    void aRefusedRequestsRuleIsNamedOnBothSides() throws Exception {
        device = Verbs.emulated().createUdp("contract-e", InetAddress.getByName("127.0.46.5"));
        peer = Verbs.emulated().createUdp("contract-f", InetAddress.getByName("127.0.46.6"));
        Context a = device.open();
        Context b = peer.open();
        Pd pdA = a.allocPd();
        Pd pdB = b.allocPd();
        Cq cqA = a.createCq(8, null);
        Cq cqB = b.createCq(8, null);
        MemorySegment local = arena.allocate(4096, 4096);
        MemorySegment remote = arena.allocate(4096, 4096);
        Mr mrA = pdA.regMr(local, Access.LOCAL_WRITE);
        Mr mrB = pdB.regMr(remote, Access.LOCAL_WRITE | Access.REMOTE_READ);
        Qp qpA = pdA.createQp(QpInitAttributes.builder(QpType.RC).cq(cqA).build());
        Qp qpB = pdB.createQp(QpInitAttributes.builder(QpType.RC).cq(cqB).build());
        QpConnect.to(new QpPeer(qpB.qpNum(), 0, b.queryGid(1, 1).gid())).apply(qpA);
        // The responder's QP allows remote writes only: a READ breaks its rule.
        QpConnect.to(new QpPeer(qpA.qpNum(), 0, a.queryGid(1, 1).gid())).accessFlags(Access.REMOTE_WRITE).apply(qpB);
        SendWr read = new SendWr(1);
        read.opcode = WrOpcode.RDMA_READ;
        read.flags = SendWr.SIGNALED;
        read.sgl.add(local.address(), 64, mrA.lkey());
        read.remoteAddr = remote.address();
        read.rkey = mrB.rkey();
        qpA.postSend(read);
        WorkCompletion[] wc = {new WorkCompletion()};
        assertThat(cqA.poll(wc, 5, TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(wc[0].status()).isEqualTo(WcStatus.REM_INV_REQ_ERR);
        assertThat(EmulatedExtension.of(a).orElseThrow().vendorErrMeaning(wc[0])).contains("NAK invalid request")
                .contains("the responder's async event names the rule");
        AsyncEvent event = b.awaitAsyncEvent(5, TimeUnit.SECONDS);
        while (event != null && event.element() != qpB.qpNum()) {
            event = b.awaitAsyncEvent(5, TimeUnit.SECONDS);
        }
        assertThat(event).isNotNull();
        assertThat(event.toString()).contains("access flags lack REMOTE_READ");
    }

    private record ReadyUd(Context ctx, Pd pd, Cq cq, Qp qp) {}

    /** A UD QP in RTS on a new device, which the test's teardown closes. */
    private ReadyUd readyUd(String name, String address, int maxSendSge) throws Exception {
        device = Verbs.emulated().createUdp(name, InetAddress.getByName(address));
        Context ctx = device.open();
        Pd pd = ctx.allocPd();
        Cq cq = ctx.createCq(8, null);
        Qp qp = pd.createQp(QpInitAttributes.builder(QpType.UD).cq(cq).maxSendSge(maxSendSge).build());
        QpConnect.datagram(0x11111111).apply(qp);
        return new ReadyUd(ctx, pd, cq, qp);
    }
}
