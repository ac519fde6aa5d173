package io.jrxe.verbs;

import java.util.List;

/** A source of devices: jrxe's emulated NICs, or the kernel's through libibverbs. */
public interface Provider {
    /** "emulated" or "native". */
    String name();

    /** The devices this provider offers now. */
    List<Device> devices() throws VerbsException;

    /** The connection manager that reaches this provider's devices by IP address (librdmacm). */
    io.jrxe.verbs.cm.RdmaCm rdmaCm() throws VerbsException;
}
