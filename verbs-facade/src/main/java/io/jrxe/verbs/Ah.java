package io.jrxe.verbs;

import io.jrxe.rnic.qp.AddressVector;

/** An address handle (ibv_ah): a UD destination. */
public interface Ah extends AutoCloseable {
    AddressVector av();

    /** The handle a UD work request names its destination by (SendWr.ahHandle). */
    int handle();

    @Override
    void close() throws VerbsException;
}
