package io.jrxe.wire.port.udp;

import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.raw.RawSocketOpener;
import io.jrxe.wire.port.raw.RawSocketUnavailableException;
import org.junit.jupiter.api.Test;

import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.channels.DatagramChannel;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The invoked NIC's port: a QP's source port is bound when the QP is ready to send, not at its first packet. */
class PolledUdpPortTest {
    private static final PeerAddress LOCAL = PeerAddress.of("127.0.6.31");
    private static final PeerAddress PEER = PeerAddress.of("127.0.6.32");
    private static final RawSocketOpener NO_RAW = () -> {
        throw new RawSocketUnavailableException(1, "not in this test");
    };
    private static final int SOURCE_PORT = 52_001;

    /** A plain socket (without SO_REUSEPORT) cannot bind an address the port's own socket holds. */
    private static void bindPlain(int udpPort) throws Exception {
        try (DatagramChannel ch = DatagramChannel.open(StandardProtocolFamily.INET)) {
            ch.bind(new InetSocketAddress(LOCAL.address(), udpPort));
        }
    }

    @Test
    void aPreparedSourcePortIsBoundBeforeAnyPacketLeavesFromIt() throws Exception {
        try (PolledUdpPort port = PolledUdpPort.bind(LOCAL, NO_RAW)) {
            assertThatCode(() -> bindPlain(SOURCE_PORT)).as("nothing holds the source port yet").doesNotThrowAnyException();
            port.prepareSource(PEER, SOURCE_PORT);
            assertThatThrownBy(() -> bindPlain(SOURCE_PORT)).isInstanceOf(BindException.class);
        }
    }

    @Test
    void aUdQpsSourcePortIsBoundToo() throws Exception {
        try (PolledUdpPort port = PolledUdpPort.bind(LOCAL, NO_RAW)) {
            port.prepareSource(null, SOURCE_PORT + 1);
            assertThatThrownBy(() -> bindPlain(SOURCE_PORT + 1)).isInstanceOf(BindException.class);
        }
    }
}
