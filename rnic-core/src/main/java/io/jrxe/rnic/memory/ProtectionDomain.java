package io.jrxe.rnic.memory;

import io.jrxe.rnic.resource.Holders;

/**
 * A protection domain: memory regions, memory windows, QPs, SRQs and AHs belong to one, and a
 * QP may only touch memory of its own PD.
 */
public final class ProtectionDomain {
    private final int handle;
    private final Holders holders = new Holders();

    public ProtectionDomain(int handle) {
        this.handle = handle;
    }

    public int handle() {
        return handle;
    }

    public Holders holders() {
        return holders;
    }

    @Override
    public String toString() {
        return "PD " + handle;
    }
}
