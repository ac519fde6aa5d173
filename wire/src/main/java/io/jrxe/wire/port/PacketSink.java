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
}
