package io.jrxe.verbs;

import java.util.List;

/** A source of devices: jrxe's emulated NICs, or the kernel's through libibverbs. */
public interface Provider {
    String name();

    List<Device> devices() throws VerbsException;
}
