package io.jrxe.verbs.facade;

import io.jrxe.verbs.*;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicExecutor;
import io.jrxe.rnic.memory.Translation;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.verbs.emulated.EmulatedExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The verbs API over an emulated device: the control path a program walks before it moves data. */
class EmulatedVerbsTest {
    private EmulatedDevice device;
    private Context ctx;
    private final Arena arena = Arena.ofConfined();

    @BeforeEach
    void open() throws Exception {
        device = Verbs.emulated().create(DeviceConfig.of("jrxe-test" + System.nanoTime(), InetAddress.getByName("127.0.0.2")),
                NicExecutor.INLINE);
        ctx = device.open();
    }

    @AfterEach
    void close() {
        Verbs.emulated().remove(device);
        arena.close();
    }

    @Test
    void deviceListFindsTheDeviceByNameAndExplainsAMissingOne() throws Exception {
        assertThat(Verbs.device(device.name())).isSameAs(device);
        assertThatThrownBy(() -> Verbs.device("mlx5_0"))
                .isInstanceOf(VerbsException.class)
                .hasMessageContaining("no RDMA device named mlx5_0")
                .hasMessageContaining(device.name());
    }

    @Test
    void portAndGidTableAreRxeLike() throws Exception {
        PortInfo port = ctx.queryPort(1);
        assertThat(port.state()).isEqualTo("ACTIVE");
        assertThat(port.linkLayer()).isEqualTo("Ethernet");
        assertThat(port.activeMtu()).isEqualTo(Mtu.MTU_1024);
        GidEntry v2 = ctx.queryGid(1, 1);
        assertThat(v2.type()).isEqualTo(GidType.ROCE_V2);
        assertThat(GidEntry.format(v2.gid())).isEqualTo("0000:0000:0000:0000:0000:ffff:7f00:0002");
        assertThat(ctx.queryPkey(1, 0)).isEqualTo(0xFFFF);
        assertThatThrownBy(() -> ctx.queryPort(2)).hasMessageContaining("port 2 does not exist");
    }

    @Test
    void aGidOrPkeyOutsideItsTableOrPortIsEinval() {
        for (ThrowingCall call : new ThrowingCall[] {() -> ctx.queryGid(1, 2), () -> ctx.queryPkey(1, 1),
                () -> ctx.queryGid(2, 0), () -> ctx.queryPkey(0, 0)}) {
            assertThatThrownBy(call::run).isInstanceOfSatisfying(VerbsException.class,
                    e -> assertThat(e.errno()).isEqualTo(Errno.EINVAL));
        }
    }

    private interface ThrowingCall {
        void run() throws Exception;
    }

    @Test
    void aQpWalksResetInitRtrRtsAndAWrongStepIsNamed() throws Exception {
        Pd pd = ctx.allocPd();
        Cq cq = ctx.createCq(16, null);
        Qp qp = pd.createQp(new QpInitAttributes(QpType.RC, cq, cq, null, new QpCapabilities(8, 8, 2, 2, 64), false));
        assertThat(qp.query().state()).isEqualTo(QpState.RESET);

        qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1)
                .accessFlags(Access.REMOTE_WRITE | Access.REMOTE_READ));
        assertThatThrownBy(() -> qp.modify(new QpAttributes().state(QpState.RTS).sqPsn(1)))
                .isInstanceOf(VerbsException.class)
                .satisfies(e -> assertThat(((VerbsException) e).errno()).isEqualTo(Errno.EINVAL))
                .hasMessage(String.format("modify QP 0x%06x INIT -> RTS: not allowed for RC; from INIT a RC QP may go to "
                        + "RESET, INIT, RTR or ERR", qp.qpNum()));

        byte[] peer = GidEntry.gidOf(InetAddress.getByName("127.0.0.1"));
        qp.modify(new QpAttributes().state(QpState.RTR).av(AddressVector.to(peer, 1)).pathMtu(Mtu.MTU_1024)
                .destQpn(0x12).rqPsn(100).maxDestRdAtomic(16).minRnrTimer(12));
        qp.modify(new QpAttributes().state(QpState.RTS).timeout(14).retryCnt(7).rnrRetry(7).sqPsn(200).maxRdAtomic(16));

        QpAttributes q = qp.query();
        assertThat(q.state()).isEqualTo(QpState.RTS);
        assertThat(q.destQpn()).isEqualTo(0x12);
        assertThat(q.rqPsn()).isEqualTo(100);
        assertThat(q.sqPsn()).isEqualTo(200);
        assertThat(q.timeout()).isEqualTo(14);
        assertThat(q.av().dgid()).isEqualTo(peer);
    }

    @Test
    void memoryRegistrationTranslatesThroughTheMttAndDestructionOrderIsEnforced() throws Exception {
        Pd pd = ctx.allocPd();
        MemorySegment memory = arena.allocate(3 * 4096 + 100, 4096).asSlice(100);
        Mr mr = pd.regMr(memory, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        assertThat(mr.rkey()).isEqualTo(mr.lkey());
        Translation t = EmulatedExtension.of(ctx).orElseThrow().translate(mr, memory.address() + 5000);
        assertThat(t.address()).isEqualTo(memory.address() + 5000);
        assertThat(t.pageAddress() % 4096).isZero();
        assertThat(t.pageOffset()).isEqualTo((memory.address() + 5000) % 4096);

        assertThatThrownBy(pd::close)
                .isInstanceOf(VerbsException.class)
                .hasMessageContaining("still in use by MR key");
        int oldKey = mr.lkey();
        mr.rereg(null, null, Access.LOCAL_WRITE);
        assertThat(mr.lkey()).isNotEqualTo(oldKey);
        assertThat(mr.lkey() >>> 8).isEqualTo(oldKey >>> 8);
        assertThat(mr.rkey()).isZero();
        mr.close();
        pd.close();
    }

    @Test
    void aRemoteWriteRegistrationWithoutLocalWriteNamesTheRule() throws Exception {
        Pd pd = ctx.allocPd();
        assertThatThrownBy(() -> pd.regMr(arena.allocate(4096), Access.REMOTE_WRITE))
                .hasMessageContaining("REMOTE_WRITE and REMOTE_ATOMIC need LOCAL_WRITE");
    }
}
