package io.jrxe.tools.common;

import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.wire.port.PacketPort;
import io.jrxe.wire.port.fault.FaultyPort;
import io.jrxe.wire.port.raw.TransmitPath;
import io.jrxe.wire.port.udp.RoceUdpPort;

import java.io.PrintWriter;

/**
 * Says, in one line on stderr when a device starts, that its IPv4 packets leave through a UDP
 * socket (no CAP_NET_RAW): their ICRC is then right for jrxe peers only, and a kernel rxe peer
 * drops every one of them without a word, which is hard to diagnose from the other side.
 */
public final class TransmitNotice {
    private TransmitNotice() {
    }

    /** The device's transmit path, or null for a device that is not on real sockets. */
    public static TransmitPath of(EmulatedDevice device) {
        if (!device.nic().hasNetwork()) {
            return null;
        }
        PacketPort port = device.nic().port() instanceof FaultyPort faulty ? faulty.inner() : device.nic().port();
        return port instanceof RoceUdpPort udp ? udp.transmitPath() : null;
    }

    /** Prints the warning when peers other than jrxe would drop this device's packets. */
    public static void warnIfUnverifiable(String deviceName, TransmitPath path, PrintWriter err) {
        if (path != null && !path.kernelPeersAccept()) {
            err.println("jrxe: " + deviceName + ": " + path.describe());
            err.flush();
        }
    }
}
