package io.jrxe.rnic;

import io.jrxe.rnic.memory.ProtectionDomain;
import io.jrxe.verbs.AddressVector;
import io.jrxe.wire.port.PeerAddress;

/**
 * An address handle: a UD destination, created in a PD (ibv_ah). Its destination GID's endpoint (an IP address,
 * or a multicast group's) is made once here, so that sending a datagram allocates nothing.
 */
public record AddressHandle(int handle, ProtectionDomain pd, AddressVector av, PeerAddress destination) {
    public AddressHandle(int handle, ProtectionDomain pd, AddressVector av) {
        this(handle, pd, av, PeerAddress.ofGid(av.dgid()));
    }

    @Override
    public String toString() {
        return "AH " + handle;
    }
}
