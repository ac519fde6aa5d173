package io.jrxe.verbs.cm;

import io.jrxe.verbs.VerbsException;

/**
 * A provider's connection manager (librdmacm): the emulated one speaks IBTA's CM on the jrxe
 * NICs of this JVM, the native one drives librdmacm and the kernel's CM.
 */
public interface RdmaCm {
    /** "emulated" or "native". */
    String provider();

    /** rdma_create_event_channel. */
    CmEventChannel createEventChannel() throws VerbsException;
}
