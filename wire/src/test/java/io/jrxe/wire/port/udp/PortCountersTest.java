package io.jrxe.wire.port.udp;

import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.raw.RawSocketOpener;
import io.jrxe.wire.stats.CounterRegistry;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A datagram a socket refuses (here: one larger than UDP allows, EMSGSIZE) is counted in the NIC's registry
 * as jrxe_tx_failed, on both kinds of port: the NIC thread's, whose writes go with Netty's void promise
 * (the failure reaches the pipeline), and the invoked one, which sends itself.
 */
class PortCountersTest {
    private static final PeerAddress LOCAL = PeerAddress.of("127.0.44.1");
    private static final PeerAddress PEER = PeerAddress.of("127.0.44.2");
    private static final int TOO_LARGE = 70_000;

    @Test
    void theNicThreadsPortCountsAWriteItsSocketRefused() throws Exception {
        UdpTransport transport = UdpTransport.best();
        EventLoopGroup group = transport.newNicThread("counters-test");
        UdpPort port = UdpPort.bind(transport, group.next(), LOCAL);
        try {
            CounterRegistry registry = new CounterRegistry();
            port.registerCounters(registry);
            ByteBuffer packet = ByteBuffer.allocateDirect(TOO_LARGE);
            group.next().submit(() -> {
                port.send(packet, 0, TOO_LARGE, PEER, 49152);
                port.flush();
            }).sync();
            assertThat(registry.get("jrxe_tx_failed")).isEqualTo(1);
        } finally {
            port.close();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    @Test
    void theInvokedPortCountsASendItsSocketRefused() throws Exception {
        try (PolledUdpPort port = PolledUdpPort.bind(PeerAddress.of("127.0.44.3"), RawSocketOpener.system())) {
            CounterRegistry registry = new CounterRegistry();
            port.registerCounters(registry);
            port.send(ByteBuffer.allocateDirect(TOO_LARGE), 0, TOO_LARGE, PEER, 49152);
            assertThat(registry.get("jrxe_tx_failed")).isEqualTo(1);
        }
    }
}
