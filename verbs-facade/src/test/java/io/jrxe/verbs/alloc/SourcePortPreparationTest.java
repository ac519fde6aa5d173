package io.jrxe.verbs.alloc;

import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.RoceSourcePort;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A QP entering RTR tells its port which UDP source port it will send from, and to whom, before it sends anything:
 * a port with a socket per source port binds it then, on the control path, not at the first packet.
 */
class SourcePortPreparationTest {
    @Test
    void aConnectedQpPreparesItsSourcePortForItsPeerBeforeItsFirstPacket() throws Exception {
        try (DirectPair pair = new DirectPair("sport", "10.9.2.1", "10.9.2.2", 1500)) {
            pair.a.connect(pair.b, pair.addressB);
            pair.link.runUntilIdle();
            int sourcePort = RoceSourcePort.connected(pair.a.qp.qpNum(), pair.b.qp.qpNum());
            assertThat(pair.link.a.prepared).containsExactly(sourcePort + " to " + PeerAddress.of(pair.addressB));
            assertThat(pair.link.a.sent).as("nothing sent yet").isZero();
            assertThat(pair.link.b.prepared).as("b's QP has not entered RTR").isEmpty();
        }
    }
}
