package io.jrxe.verbs.alloc;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicExecutor;
import io.jrxe.verbs.facade.Verbs;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.RoceSourcePort;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A QP entering RTR tells its port which UDP source port it will send from, and to whom, before it sends anything:
 * a port with a socket per source port binds it then, on the control path, not at the first packet.
 */
class SourcePortPreparationTest {
    private final Arena arena = Arena.ofConfined();
    private EmulatedDevice da;
    private EmulatedDevice db;

    @AfterEach
    void close() {
        Verbs.emulated().remove(da);
        Verbs.emulated().remove(db);
        arena.close();
    }

    @Test
    void aConnectedQpPreparesItsSourcePortForItsPeerBeforeItsFirstPacket() throws Exception {
        InetAddress ia = InetAddress.getByName("10.9.2.1");
        InetAddress ib = InetAddress.getByName("10.9.2.2");
        DirectLink link = new DirectLink(PeerAddress.of(ia), PeerAddress.of(ib));
        da = Verbs.emulated().create(DeviceConfig.of("sport-a" + System.nanoTime(), ia), NicExecutor.INLINE, link.a, link);
        db = Verbs.emulated().create(DeviceConfig.of("sport-b" + System.nanoTime(), ib), NicExecutor.INLINE, link.b, link);
        DirectSide a = new DirectSide(da, arena);
        DirectSide b = new DirectSide(db, arena);
        a.connect(b, ib);
        link.runUntilIdle();
        int sourcePort = RoceSourcePort.connected(a.qp.qpNum(), b.qp.qpNum());
        assertThat(link.a.prepared).containsExactly(sourcePort + " to " + PeerAddress.of(ib));
        assertThat(link.a.sent).as("nothing sent yet").isZero();
        assertThat(link.b.prepared).as("b's QP has not entered RTR").isEmpty();
    }
}
