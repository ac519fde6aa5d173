package io.jrxe.wire.port.raw;

import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.udp.UdpPort;
import io.jrxe.wire.port.udp.UdpTransport;
import io.netty.channel.EventLoopGroup;

import java.util.concurrent.TimeUnit;

/**
 * Binds a real port on the address given and prints the transmit path it chose, then what a
 * probe (devinfo's way) finds: run by {@link TransmitFallbackTest} in a JVM without privileges.
 */
public final class TransmitPathMain {
    private TransmitPathMain() {
    }

    public static void main(String[] args) throws Exception {
        UdpTransport transport = UdpTransport.best();
        EventLoopGroup group = transport.newNicThread("probe");
        try {
            UdpPort port = UdpPort.bind(transport, group.next(), PeerAddress.of(args[0]));
            System.out.println("port: " + port.transmitPath().describe());
            port.close();
            System.out.println("probe: " + TransmitPath.probe(false, RawSocketOpener.system()).describe());
        } finally {
            group.shutdownGracefully(0, 100, TimeUnit.MILLISECONDS).syncUninterruptibly();
        }
    }
}
