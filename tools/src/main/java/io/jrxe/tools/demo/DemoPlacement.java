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
record DemoPlacement(InetAddress addressA, InetAddress addressB, int portA, int portB, String notice) {
    /** jrxe1's UDP port when it shares jrxe0's address. */
    static final int SECOND_PORT = DeviceConfig.ROCE_PORT + 1;

    /**
     * @param bAsked whether the user named the second address (then it is used as it is, and an address the machine
     *               does not have fails as it always does, when it is bound)
     * @param local  whether the machine has an address
     */
    static DemoPlacement choose(InetAddress a, InetAddress b, boolean bAsked, Predicate<InetAddress> local) {
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
    static boolean isLocal(InetAddress address) {
        try (DatagramSocket probe = new DatagramSocket(new InetSocketAddress(address, 0))) {
            return probe.isBound();
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether the two NICs share one address, each on a port of its own. */
    boolean sharedAddress() {
        return portA != portB;
    }

    /** jrxe0's configuration: bound to its port, sending to jrxe1's. */
    DeviceConfig configA(String name) {
        return DeviceConfig.of(name, addressA).withUdpPorts(portA, portB);
    }

    /** jrxe1's configuration: bound to its port, sending to jrxe0's. */
    DeviceConfig configB(String name) {
        return DeviceConfig.of(name, addressB).withUdpPorts(portB, portA);
    }

    /** "127.0.0.1", or "127.0.0.1:4792" when the NICs share the address. */
    String where(InetAddress address, int port) {
        return sharedAddress() ? address.getHostAddress() + ":" + port : address.getHostAddress();
    }
}
