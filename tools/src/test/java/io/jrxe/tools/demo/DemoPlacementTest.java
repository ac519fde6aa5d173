package io.jrxe.tools.demo;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.tools.UserError;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Where the demo puts its two NICs: two addresses where the machine has the second, else one address and two ports. */
class DemoPlacementTest {
    private static final InetAddress A = address("127.0.0.1");
    private static final InetAddress B = address("127.0.0.2");

    @Test
    void twoAddressesOnRocesPortWhereTheMachineHasTheSecond() {
        DemoPlacement p = DemoPlacement.choose(A, B, false, a -> true);
        assertThat(p.addressB()).isEqualTo(B);
        assertThat(p.sharedAddress()).isFalse();
        assertThat(p.notice()).isNull();
        assertThat(p.configA("jrxe0").onRocePort()).isTrue();
        assertThat(p.configB("jrxe1").onRocePort()).isTrue();
        assertThat(p.where(B, p.portB())).isEqualTo("127.0.0.2");
    }

    @Test
    void oneAddressAndTwoPortsWhereTheDefaultSecondAddressIsMissing() {
        DemoPlacement p = DemoPlacement.choose(A, B, false, a -> a.equals(A));
        assertThat(p.addressB()).isEqualTo(A);
        assertThat(p.sharedAddress()).isTrue();
        assertThat(p.notice()).isEqualTo("127.0.0.2 is not an address of this machine: both NICs on 127.0.0.1, jrxe0 on UDP"
                + " port 4791 and jrxe1 on 4792 (--addr-b picks another address)");
        DeviceConfig a = p.configA("jrxe0");
        DeviceConfig b = p.configB("jrxe1");
        assertThat(a.udpPort()).as("each is bound to the port the other sends to").isEqualTo(b.peerUdpPort()).isEqualTo(4791);
        assertThat(b.udpPort()).isEqualTo(a.peerUdpPort()).isEqualTo(4792);
        assertThat(p.where(p.addressB(), p.portB())).isEqualTo("127.0.0.1:4792");
    }

    @Test
    void aSecondAddressAskedForIsKeptEvenWhenMissingSoThatBindingItSaysSo() {
        DemoPlacement p = DemoPlacement.choose(A, B, true, a -> a.equals(A));
        assertThat(p.addressB()).isEqualTo(B);
        assertThat(p.sharedAddress()).isFalse();
    }

    @Test
    void oneAddressTwiceIsABadOption() {
        assertThatThrownBy(() -> DemoPlacement.choose(A, A, true, a -> true)).isInstanceOf(UserError.class)
                .hasMessage("the two devices need two addresses, not both 127.0.0.1");
    }

    @Test
    void theMachinesAddressesAreThoseASocketBindsTo() {
        assertThat(DemoPlacement.isLocal(A)).isTrue();
        assertThat(DemoPlacement.isLocal(address("192.0.2.1"))).as("TEST-NET-1 is nobody's").isFalse();
    }

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
