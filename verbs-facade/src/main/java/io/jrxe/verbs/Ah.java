package io.jrxe.verbs;

import io.jrxe.rnic.qp.AddressVector;

/** An address handle (ibv_ah): a UD destination. */
public interface Ah extends AutoCloseable {
    AddressVector av();

    @Override
    void close() throws VerbsException;
}
