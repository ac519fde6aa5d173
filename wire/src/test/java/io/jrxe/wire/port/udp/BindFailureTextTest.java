package io.jrxe.wire.port.udp;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A failed bind says what went wrong in the user's words, whichever socket implementation failed: the JDK's
 * (a BindException for a taken port and for a foreign address alike) or Netty's epoll (its own IOException).
 */
class BindFailureTextTest {
    private static final InetSocketAddress AT = new InetSocketAddress("192.0.2.9", 4791);

    @Test
    void aForeignAddressIsNamedAsSuchEvenInABindException() {
        assertThat(UdpSockets.describeBindFailure(AT, new BindException("Cannot assign requested address")))
                .isEqualTo("192.0.2.9 is not an address of this machine (see `ip addr`)");
        assertThat(UdpSockets.describeBindFailure(AT, new IOException("bind(..) failed: Cannot assign requested address")))
                .isEqualTo("192.0.2.9 is not an address of this machine (see `ip addr`)");
        assertThat(UdpSockets.describeBindFailure(AT, new BindException("Can't assign requested address")))
                .as("macOS's words").isEqualTo("192.0.2.9 is not an address of this machine (see `ip addr`)");
    }

    @Test
    void aTakenPortNamesTheAddressAndPort() {
        assertThat(UdpSockets.describeBindFailure(AT, new BindException("Address already in use")))
                .isEqualTo("another RoCE device, kernel rxe or jrxe, already uses 192.0.2.9:4791");
        assertThat(UdpSockets.describeBindFailure(AT, new IOException("bind(..) failed: Address already in use")))
                .isEqualTo("another RoCE device, kernel rxe or jrxe, already uses 192.0.2.9:4791");
    }

    @Test
    void anyOtherFailureKeepsItsOwnText() {
        assertThat(UdpSockets.describeBindFailure(AT, new IOException("Permission denied")))
                .isEqualTo("cannot bind 192.0.2.9:4791: Permission denied");
    }
}
