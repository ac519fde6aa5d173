package io.jrxe.verbs;


/** An address handle (ibv_ah): a UD destination. */
public interface Ah extends AutoCloseable {
    /** The destination this handle was created with. */
    AddressVector av();

    /** The handle a UD send work request names its destination by ({@code SendWr.ahHandle}, ibv_send_wr.wr.ud.ah). */
    int handle();

    @Override
    void close() throws VerbsException;
}
