package io.jrxe.wire.port;

import io.jrxe.verbs.spi.Platform;
import io.jrxe.wire.port.raw.RawSocketOpener;
import io.jrxe.wire.port.raw.RawSocketUnavailableException;
import io.jrxe.wire.port.udp.UdpTransport;
import io.netty.channel.epoll.Epoll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** -Djrxe.portable=true turns epoll and the raw socket off, each saying why; false leaves them to what the host has. */
class PortableSwitchTest {
    private static final String FORCED = "portable path forced (-Djrxe.portable=true)";
    private final String before = System.getProperty(Platform.PROPERTY);

    @AfterEach
    void restore() {
        if (before == null) {
            System.clearProperty(Platform.PROPERTY);
        } else {
            System.setProperty(Platform.PROPERTY, before);
        }
    }

    @Test
    void forcedThePortsUseNioAndUdpSocketsAndSayWhy() {
        System.setProperty(Platform.PROPERTY, "true");
        assertThat(Platform.linuxOnlyUnavailable()).isEqualTo(FORCED);
        assertThat(UdpTransport.best()).isEqualTo(UdpTransport.NIO);
        assertThat(UdpTransport.NIO.describe()).isEqualTo("NIO (epoll unavailable: " + FORCED + ")");
        assertThatThrownBy(() -> RawSocketOpener.system().open()).isInstanceOf(RawSocketUnavailableException.class)
                .hasMessage(FORCED);
    }

    @Test
    void notForcedLinuxGetsEpollWhereItLoads() {
        System.setProperty(Platform.PROPERTY, "false");
        if (Platform.linux()) {
            assertThat(Platform.linuxOnlyUnavailable()).isNull();
            assertThat(UdpTransport.best()).isEqualTo(Epoll.isAvailable() ? UdpTransport.EPOLL : UdpTransport.NIO);
        } else {
            assertThat(Platform.linuxOnlyUnavailable()).startsWith("Linux only, and this is ");
            assertThat(UdpTransport.best()).isEqualTo(UdpTransport.NIO);
        }
    }
}
