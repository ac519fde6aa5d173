package io.jrxe.rnic.engine;

import io.jrxe.wire.port.PeerAddress;

import java.nio.ByteBuffer;

/**
 * The consumer of one management class's MADs behind QP1 (the CM, for class 0x07). The GSI QP
 * hands it a MAD whose transport headers, length, base version and class version it checked;
 * the agent runs on the NIC thread, drops what it cannot use through {@link GsiQp#dropped} and
 * never throws.
 */
public interface MadAgent {
    /** The class version this agent speaks (2 for the CM); MADs of another are dropped before it. */
    int classVersion();

    /**
     * One MAD: {@code mad} holds its 256 bytes from index 0, valid until the call returns.
     *
     * @param from   the sender's address (where answers go)
     * @param pkey   the BTH P_Key the MAD came with
     */
    void mad(ByteBuffer mad, PeerAddress from, int pkey);
}
