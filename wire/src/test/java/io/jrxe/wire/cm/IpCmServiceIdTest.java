package io.jrxe.wire.cm;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** RDMA CM service IDs: port space above port, in the annex A11 range for TCP, UDP and IB. */
class IpCmServiceIdTest {
    @Test
    void theServiceIdsOfTheGoldenCaptures() {
        // testdata/rxe-cm/README.md: rping 7174, ucmatose 7471, the refused REQ 7999, all TCP.
        assertThat(IpCmServiceId.of(PortSpace.TCP, 7174)).isEqualTo(0x0000000001061c06L);
        assertThat(IpCmServiceId.of(PortSpace.TCP, 7471)).isEqualTo(0x0000000001061d2fL);
        assertThat(IpCmServiceId.of(PortSpace.TCP, 7999)).isEqualTo(0x0000000001061f3fL);
        assertThat(IpCmServiceId.describe(0x0000000001061c06L)).isEqualTo("TCP:7174");
    }

    @Test
    void everyPortSpaceRoundTrips() {
        for (PortSpace space : PortSpace.values()) {
            for (int port : new int[] {0, 1, 4791, 0xFFFF}) {
                long id = IpCmServiceId.of(space, port);
                assertThat(IpCmServiceId.portSpace(id)).as("%s:%d", space, port).isEqualTo(space);
                assertThat(IpCmServiceId.port(id)).isEqualTo(port);
                assertThat(IpCmServiceId.isIpCm(id)).as("%s in the annex A11 range", space).isEqualTo(space != PortSpace.IPOIB);
                assertThat(IpCmServiceId.describe(id)).isEqualTo(space + ":" + port);
            }
        }
        assertThat(IpCmServiceId.of(PortSpace.UDP, 1)).isEqualTo(0x0000000001110001L);
        assertThat(IpCmServiceId.of(PortSpace.IB, 2)).isEqualTo(0x00000000013F0002L);
        assertThat(IpCmServiceId.of(PortSpace.IPOIB, 3)).isEqualTo(0x0000000000020003L);
        assertThat(PortSpace.TCP.protocol()).isEqualTo(6);
        assertThat(PortSpace.UDP.protocol()).isEqualTo(17);
    }

    @Test
    void otherServiceIdsAreNoneOfRdmaCms() {
        for (long id : new long[] {0, 0x0200000000000000L, 0x0000000101061c06L, 0x0000000001071c06L, -1L}) {
            assertThat(IpCmServiceId.portSpace(id)).as("0x%016x", id).isNull();
        }
        assertThat(IpCmServiceId.isIpCm(0x0000000001071c06L)).as("prefix right, protocol unknown").isTrue();
        assertThat(IpCmServiceId.describe(0x0200000000000001L)).isEqualTo("0x0200000000000001");
        assertThatThrownBy(() -> IpCmServiceId.of(PortSpace.TCP, 65536)).isInstanceOf(IllegalArgumentException.class);
    }
}
