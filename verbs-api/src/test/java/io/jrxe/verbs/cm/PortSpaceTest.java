package io.jrxe.verbs.cm;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The RDMA IP CM service IDs, as Linux's CM puts them in its REQs (testdata/rxe-cm: rping's 0x0000000001061c06,
 * ucmatose's 0x0000000001061d2f, the refused connect's 0x0000000001061f3f) and as a SIDR_REQ of the UDP port space.
 */
class PortSpaceTest {
    @Test
    void theServiceIdIsThePrefixThenTheProtocolByteThenThePort() {
        assertThat(PortSpace.TCP.serviceId(7174)).isEqualTo(0x0000000001061c06L);
        assertThat(PortSpace.TCP.serviceId(7471)).isEqualTo(0x0000000001061d2fL);
        assertThat(PortSpace.TCP.serviceId(7999)).isEqualTo(0x0000000001061f3fL);
        assertThat(PortSpace.UDP.serviceId(7174)).isEqualTo(0x0000000001111c06L);
        assertThat(PortSpace.TCP.serviceId(0xFFFF)).isEqualTo(0x000000000106ffffL);
    }

    @Test
    void aPortOutOfRangeIsRefused() {
        assertThatThrownBy(() -> PortSpace.UDP.serviceId(65536)).hasMessageContaining("65536");
        assertThatThrownBy(() -> PortSpace.TCP.serviceId(-1)).hasMessageContaining("-1");
    }
}
