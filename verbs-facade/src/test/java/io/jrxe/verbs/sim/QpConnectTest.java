package io.jrxe.verbs.sim;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpConnect;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpPeer;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.wire.port.udp.PortInUseException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * QpConnect takes RC, UC and UD QPs to RTS in one call, with rdma-core's defaults, and refuses a mismatch. On either
 * fixture wire ({@link FixtureWire}).
 */
class QpConnectTest {
    private final FixtureWire wire = new FixtureWire(7);
    private final Arena arena = Arena.ofShared();
    private final EmulatedDevice deviceA = device("10.8.0.1");
    private final EmulatedDevice deviceB = device("10.8.0.2");

    private EmulatedDevice device(String ip) {
        try {
            return wire.device(DeviceConfig.of("connect-" + ip + "-" + System.nanoTime(), InetAddress.getByName(ip)));
        } catch (java.net.UnknownHostException | PortInUseException e) {
            throw new IllegalArgumentException(e);
        }
    }

    @AfterEach
    void close() {
        wire.close();
        arena.close();
    }

    private record Side(Context ctx, Pd pd, Cq cq, Qp qp, MemorySegment memory, Mr mr) {
    }

    private Side side(EmulatedDevice device, QpType type) throws VerbsException {
        Context ctx = device.open();
        Pd pd = ctx.allocPd();
        Cq cq = ctx.createCq(16, null);
        Qp qp = pd.createQp(new QpInitAttributes(type, cq, cq, null, new QpCapabilities(8, 8, 1, 1, 0), false));
        MemorySegment memory = arena.allocate(4096, 4096);
        Mr mr = pd.regMr(memory, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
        return new Side(ctx, pd, cq, qp, memory, mr);
    }

    private void writeFromAToB(QpType type) throws VerbsException {
        Side a = side(deviceA, type);
        Side b = side(deviceB, type);
        QpConnect.to(new QpPeer(b.qp.qpNum(), 0x200, b.ctx.queryGid(1, 1).gid())).localPsn(0x100).apply(a.qp);
        QpConnect.to(new QpPeer(a.qp.qpNum(), 0x100, a.ctx.queryGid(1, 1).gid())).localPsn(0x200).apply(b.qp);
        QpAttributes q = a.qp.query();
        assertThat(q.state()).isEqualTo(QpState.RTS);
        assertThat(q.sqPsn()).isEqualTo(0x100);
        assertThat(q.destQpn()).isEqualTo(b.qp.qpNum());
        assertThat(q.pathMtu()).isEqualTo(Mtu.MTU_1024);
        a.memory.setString(0, "connected");
        SendWr wr = new SendWr(1);
        wr.opcode = WrOpcode.RDMA_WRITE;
        wr.flags = SendWr.SIGNALED;
        wr.sgl.add(a.memory.address(), 10, a.mr.lkey());
        wr.remoteAddr = b.memory.address();
        wr.rkey = b.mr.rkey();
        a.qp.postSend(wr);
        WorkCompletion[] wc = {new WorkCompletion()};
        int[] polled = {0};
        assertThat(wire.runUntil(() -> polled[0] += a.cq.poll(wc), () -> polled[0] == 1, 1_000_000_000L)).isTrue();
        assertThat(wc[0].status()).isEqualTo(WcStatus.SUCCESS);
        // UC completes a WRITE once it is sent: the packet may still be on its way.
        assertThat(wire.runUntil(() -> wire.invoke(deviceB), () -> b.memory.getString(0).equals("connected"),
                1_000_000_000L)).isTrue();
    }

    @Test
    void anRcQpConnectsInOneCallAndMovesData() throws Exception {
        writeFromAToB(QpType.RC);
        assertThat(QpConnect.to(new QpPeer(1, 2, new byte[16])).rts(QpType.RC).timeout()).isEqualTo(14);
    }

    @Test
    void aUcQpConnectsInOneCallAndMovesData() throws Exception {
        writeFromAToB(QpType.UC);
    }

    @Test
    void aUdQpIsReadyForDatagramsUnderItsQkey() throws Exception {
        Side a = side(deviceA, QpType.UD);
        QpConnect.datagram(0x11111111).apply(a.qp);
        QpAttributes q = a.qp.query();
        assertThat(q.state()).isEqualTo(QpState.RTS);
        assertThat(q.qkey()).isEqualTo(0x11111111);
    }

    @Test
    void aPeerForAUdQpOrNoneForAnRcQpIsRefusedWithTheRightCall() throws Exception {
        Side rc = side(deviceA, QpType.RC);
        Side ud = side(deviceB, QpType.UD);
        assertThatThrownBy(() -> QpConnect.datagram(1).apply(rc.qp)).isInstanceOf(VerbsException.class)
                .hasMessageContaining("use QpConnect.to(peer)")
                .satisfies(e -> assertThat(((VerbsException) e).errno()).isEqualTo(Errno.EINVAL));
        assertThatThrownBy(() -> QpConnect.to(new QpPeer(1, 0, new byte[16])).apply(ud.qp))
                .hasMessageContaining("use QpConnect.datagram(qkey)");
        assertThatThrownBy(() -> new QpPeer(1 << 24, 0, new byte[16])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("24 bits");
    }
}
