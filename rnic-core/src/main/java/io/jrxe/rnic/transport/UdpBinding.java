package io.jrxe.rnic.transport;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.raw.RawSocketOpener;
import io.jrxe.wire.port.raw.RawSocketUnavailableException;
import io.jrxe.wire.port.udp.RoceUdpPort;

/**
 * What the real transports (UDP, shared memory) take from a device's configuration: the address and port to bind, the raw path, the
 * peers' port.
 */
final class UdpBinding {
    private UdpBinding() {
    }

    /** The device's first address on the UDP port it is configured with. */
    static PeerAddress local(DeviceConfig config) {
        return PeerAddress.of(config.addresses().getFirst(), config.udpPort());
    }

    /**
     * The system's raw socket for a device on RoCEv2's port. The raw path writes UDP headers to and from 4791 itself,
     * so a device on other ports keeps its packets on its UDP sockets.
     */
    static RawSocketOpener rawOpener(DeviceConfig config) {
        if (config.onRocePort()) {
            return RawSocketOpener.system();
        }
        String why = "the device is on UDP port " + config.udpPort() + ", sending to " + config.peerUdpPort();
        return () -> {
            throw new RawSocketUnavailableException(0, why);
        };
    }

    /** Points the bound port at the peers' UDP port, and sets what it sends as the device asks (FLUSH's ICRC, ECT). */
    static <P extends RoceUdpPort> P toPeers(P port, DeviceConfig config) {
        port.rxeFlushIcrc(config.rxeFlushIcrc());
        port.peersOnPort(config.peerUdpPort());
        port.ecnCapable(config.ecnCapable());
        return port;
    }
}
