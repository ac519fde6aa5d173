package io.jrxe.wire.port.udp;

import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.raw.RawSocketOpener;
import io.jrxe.wire.port.raw.RawSocketUnavailableException;
import org.junit.jupiter.api.Test;

import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The invoked NIC's port: a QP's source port is bound when the QP is ready to send, not at its first packet, and a QP
 * of one peer sends from a socket connected to it.
 */
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

    @Test
    void aConnectedQpsPacketsLeaveFromASocketConnectedToItsPeer() throws Exception {
        try (PolledUdpPort port = PolledUdpPort.bind(LOCAL, NO_RAW); DatagramChannel peer = roceSocket(PEER)) {
            port.prepareSource(PEER, SOURCE_PORT + 2);
            assertThat(port.sendsConnected(SOURCE_PORT + 2, PEER)).isTrue();
            send(port, PEER, SOURCE_PORT + 2);
            assertThat(receiveFrom(peer)).isEqualTo(new InetSocketAddress(LOCAL.address(), SOURCE_PORT + 2));
        }
    }

    @Test
    void anotherPeerOnTheSameSourcePortIsStillReachedFromThatPort() throws Exception {
        PeerAddress other = PeerAddress.of("127.0.6.33");
        try (PolledUdpPort port = PolledUdpPort.bind(LOCAL, NO_RAW); DatagramChannel first = roceSocket(PEER);
             DatagramChannel second = roceSocket(other)) {
            port.prepareSource(PEER, SOURCE_PORT + 3);
            port.prepareSource(other, SOURCE_PORT + 3); // a second QP whose source port collides with the first's
            assertThat(port.sendsConnected(SOURCE_PORT + 3, other)).as("the port's socket is the first QP's").isFalse();
            send(port, other, SOURCE_PORT + 3);
            send(port, PEER, SOURCE_PORT + 3);
            assertThat(receiveFrom(second)).isEqualTo(new InetSocketAddress(LOCAL.address(), SOURCE_PORT + 3));
            assertThat(receiveFrom(first)).isEqualTo(new InetSocketAddress(LOCAL.address(), SOURCE_PORT + 3));
        }
    }

    @Test
    void aUdQpsSocketIsNotConnected() throws Exception {
        try (PolledUdpPort port = PolledUdpPort.bind(LOCAL, NO_RAW)) {
            port.prepareSource(null, SOURCE_PORT + 4);
            assertThat(port.sendsConnected(SOURCE_PORT + 4, PEER)).isFalse();
        }
    }

    /**
     * A port told to send to another UDP port (a device paired with another on one address) sends there, connected
     * QP or not, though the peer's address, from its GID, says 4791.
     */
    @Test
    void packetsGoToThePeersPortThatWasSet() throws Exception {
        PeerAddress paired = PeerAddress.of(PEER.address(), 4792);
        try (PolledUdpPort port = PolledUdpPort.bind(LOCAL, NO_RAW); DatagramChannel peer = roceSocket(paired)) {
            port.peersOnPort(4792);
            port.prepareSource(PEER, SOURCE_PORT + 5);
            assertThat(port.sendsConnected(SOURCE_PORT + 5, PEER)).isTrue();
            send(port, PEER, SOURCE_PORT + 5);
            assertThat(receiveFrom(peer)).isEqualTo(new InetSocketAddress(LOCAL.address(), SOURCE_PORT + 5));
            send(port, PEER, 4791); // from the port's own socket: unconnected
            assertThat(receiveFrom(peer)).isEqualTo(new InetSocketAddress(LOCAL.address(), 4791));
        }
    }

    private static DatagramChannel roceSocket(PeerAddress at) throws Exception {
        DatagramChannel ch = DatagramChannel.open(StandardProtocolFamily.INET);
        ch.bind(at.socketAddress());
        return ch;
    }

    /** A datagram of 28 bytes: a BTH, some payload, and room for the ICRC the port writes. */
    private static void send(PolledUdpPort port, PeerAddress to, int srcPort) {
        port.send(ByteBuffer.allocateDirect(28), 0, 28, to, srcPort);
    }

    /** Who sent the datagram that {@code ch} receives within 10 s (a test that fails, not one that hangs). */
    private static InetSocketAddress receiveFrom(DatagramChannel ch) throws Exception {
        ch.configureBlocking(false);
        try (Selector s = Selector.open()) {
            ch.register(s, SelectionKey.OP_READ);
            assertThat(s.select(10_000)).as("a datagram arrived").isPositive();
            return (InetSocketAddress) ch.receive(ByteBuffer.allocate(64));
        }
    }
}
