package io.jrxe.rnic.cm;

import io.jrxe.wire.port.PeerAddress;

import java.nio.ByteBuffer;

/**
 * A peer's communication as the passive side knows it before it has its own ID for it: the
 * peer's GID and its local communication ID (IBTA: the pair a duplicate REQ is recognised by).
 */
record RemoteKey(long gidHigh, long gidLow, int remoteCommId) {
    static RemoteKey of(PeerAddress peer, int remoteCommId) {
        ByteBuffer gid = ByteBuffer.wrap(peer.gid());
        return new RemoteKey(gid.getLong(0), gid.getLong(8), remoteCommId);
    }
}
