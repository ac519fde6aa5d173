package io.jrxe.wire.sim.fabric;

import io.jrxe.wire.port.PeerAddress;

/** The two ends of a flow through the fabric: the sending port and the receiving one. */
public record HostPair(PeerAddress sender, PeerAddress receiver) {
    @Override
    public String toString() {
        return sender.address().getHostAddress() + ">" + receiver.address().getHostAddress();
    }
}
