package io.jrxe.wire.port;

import java.nio.ByteBuffer;

/** Where a port delivers packets: the NIC's receive path, on the NIC thread. */
public interface PacketSink {
    /**
     * One RoCE packet (BTH to ICRC inclusive), its ICRC already checked. The buffer is only
     * valid during the call.
     */
    void packet(ByteBuffer buffer, int offset, int length, PacketInfo info);

    /** A packet the port dropped, with the reason. */
    void dropped(ByteBuffer buffer, int offset, int length, PacketInfo info, DropReason reason);

    /**
     * The packets delivered since the last call came together (one read of the socket, or one
     * packet on a simulated network): what the NIC defers to the end of a burst, such as coalesced
     * ACKs, goes now. A port must call it after every burst.
     */
    default void burstEnd() {
    }
}
