package io.jrxe.tools.demo;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.tools.UserError;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.function.Predicate;

/**
 * Where the demo's two NICs sit: on two addresses, each on RoCEv2's port 4791, or, when the second address was not
 * asked for and the machine does not have it (macOS and some containers give loopback only 127.0.0.1), both on the
 * first address, jrxe0 on port 4791 and jrxe1 on {@link #SECOND_PORT}, each sending to the other's port.
 *
 * @param notice the one line that says the fallback was taken, or null
 */
public record DemoPlacement(InetAddress addressA, InetAddress addressB, int portA, int portB, String notice) {
    /** jrxe1's UDP port when it shares jrxe0's address. */
    static final int SECOND_PORT = DeviceConfig.ROCE_PORT + 1;

    /**
     * @param bAsked whether the user named the second address (then it is used as it is, and an address the machine
     *               does not have fails as it always does, when it is bound)
     * @param local  whether the machine has an address
     */
    public static DemoPlacement choose(InetAddress a, InetAddress b, boolean bAsked, Predicate<InetAddress> local) {
        if (a.equals(b)) {
            throw new UserError("the two devices need two addresses, not both " + a.getHostAddress());
        }
        if (bAsked || local.test(b)) {
            return new DemoPlacement(a, b, DeviceConfig.ROCE_PORT, DeviceConfig.ROCE_PORT, null);
        }
        return new DemoPlacement(a, a, DeviceConfig.ROCE_PORT, SECOND_PORT, b.getHostAddress()
                + " is not an address of this machine: both NICs on " + a.getHostAddress() + ", jrxe0 on UDP port "
                + DeviceConfig.ROCE_PORT + " and jrxe1 on " + SECOND_PORT + " (--addr-b picks another address)");
    }

    /** Whether the machine has {@code address}: whether a socket can be bound to it. */
    public static boolean isLocal(InetAddress address) {
        try (DatagramSocket probe = new DatagramSocket(new InetSocketAddress(address, 0))) {
            return probe.isBound();
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether the two NICs share one address, each on a port of its own. */
    public boolean sharedAddress() {
        return portA != portB;
    }

    /** jrxe0's configuration: bound to its port, sending to jrxe1's. */
    public DeviceConfig configA(String name) {
        return DeviceConfig.of(name, addressA).withUdpPorts(portA, portB);
    }

    /** jrxe1's configuration: bound to its port, sending to jrxe0's. */
    DeviceConfig configB(String name) {
        return DeviceConfig.of(name, addressB).withUdpPorts(portB, portA);
    }

    /**
     * jrxe1's configuration with its QP numbers and keys apart from jrxe0's (which start, as rxe's, at QPN 0x11 and key
     * index 1): with both alike, nothing shows that a BTH names the destination's QP alone and that a key means something
     * on the device that made it only.
     */
    public DeviceConfig configBNumberedApart(String name) {
        return configB(name).withFirstNumbers(Demo.JRXE1_FIRST_QPN, Demo.JRXE1_FIRST_KEY_INDEX);
    }

    /** "127.0.0.1", or "127.0.0.1:4792" when the NICs share the address. */
    public String where(InetAddress address, int port) {
        return sharedAddress() ? address.getHostAddress() + ":" + port : address.getHostAddress();
    }
}
