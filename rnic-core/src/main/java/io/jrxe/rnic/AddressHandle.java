package io.jrxe.rnic;

import io.jrxe.rnic.memory.ProtectionDomain;
import io.jrxe.verbs.AddressVector;

/** An address handle: a UD destination, created in a PD (ibv_ah). */
public record AddressHandle(int handle, ProtectionDomain pd, AddressVector av) {
    @Override
    public String toString() {
        return "AH " + handle;
    }
}
