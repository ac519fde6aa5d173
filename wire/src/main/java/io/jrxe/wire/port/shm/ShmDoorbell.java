package io.jrxe.wire.port.shm;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

/**
 * How a producer wakes a ring's consumer that sleeps ({@link ShmWaiter}): after its commit, one datagram to the
 * doorbell port the ring's header gives, on 127.0.0.1, from a socket of the producer's own, opened at the first ring.
 * A doorbell that cannot be rung costs the consumer its longest sleep. One producer thread per doorbell.
 */
public final class ShmDoorbell implements AutoCloseable {
    private final ByteBuffer ding = ByteBuffer.allocateDirect(1);
    private DatagramChannel socket;
    private boolean unavailable;
    private int lastPort;
    private InetSocketAddress lastAddress;

    /** After a commit to {@code ring}: rings its consumer's doorbell if it sleeps. True when it rang. */
    public boolean wakeIfAsleep(ShmRing ring) {
        if (!ring.takeSleeper()) {
            return false;
        }
        int port = ring.doorbellPort();
        DatagramChannel s = socket();
        if (port == 0 || s == null) {
            return false;
        }
        if (port != lastPort) {
            lastPort = port;
            lastAddress = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        }
        try {
            s.send(ding.clear(), lastAddress);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private DatagramChannel socket() {
        if (socket == null && !unavailable) {
            try {
                socket = DatagramChannel.open(StandardProtocolFamily.INET);
                socket.configureBlocking(false);
            } catch (IOException e) {
                unavailable = true;
            }
        }
        return socket;
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing: the descriptor is released either way
            }
        }
    }
}
