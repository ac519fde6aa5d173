package io.jrxe.tools.conformance;

import io.jrxe.tools.UserError;
import io.jrxe.wire.port.PeerAddress;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.util.Arrays;

/**
 * The tester on UDP: a socket on its own address, port 4791, where the target's answers arrive and its packets
 * leave from, and one on the third address (any port) for forged sources. The kernel writes the IP header.
 */
final class UdpCarriage implements TesterCarriage {
    private static final int MAX_PACKET = 8192;

    private final DatagramSocket socket;
    private final DatagramSocket thirdSocket;
    private final byte[] receiveBuffer = new byte[MAX_PACKET];

    UdpCarriage(PeerAddress self, PeerAddress third) {
        try {
            socket = new DatagramSocket(new InetSocketAddress(self.address(), PeerAddress.ROCE_PORT));
        } catch (IOException e) {
            throw cannotOpen(self, e);
        }
        try {
            thirdSocket = new DatagramSocket(new InetSocketAddress(third.address(), 0));
        } catch (IOException e) {
            socket.close();
            throw cannotOpen(self, e);
        }
    }

    private static UserError cannotOpen(PeerAddress self, IOException e) {
        return new UserError("cannot open the tester's UDP socket on " + self.address().getHostAddress() + ":"
                + PeerAddress.ROCE_PORT + ": " + e.getMessage() + " (another RoCE stack on that address? pick one with --addr)", e);
    }

    @Override
    public String describe() {
        return "UDP socket";
    }

    @Override
    public String withoutRaw() {
        return "a jrxe target on loopback needs no raw socket";
    }

    @Override
    public int sourcePort(PacketRecipe.Source from) {
        return socketOf(from).getLocalPort();
    }

    private DatagramSocket socketOf(PacketRecipe.Source from) {
        return from == PacketRecipe.Source.THIRD ? thirdSocket : socket;
    }

    @Override
    public void send(byte[] roce, PacketRecipe.Source from, PeerAddress target) {
        try {
            socketOf(from).send(new DatagramPacket(roce, roce.length, new InetSocketAddress(target.address(), PeerAddress.ROCE_PORT)));
        } catch (IOException e) {
            throw new UnsentPacket("the kernel refused the tester's " + roce.length + "-byte datagram to "
                    + target.address().getHostAddress() + ": " + e.getMessage());
        }
    }

    @Override
    public Arrival receive(PeerAddress target, long deadlineNanos) {
        while (true) {
            long left = (deadlineNanos - System.nanoTime()) / 1_000_000L;
            if (left <= 0) {
                return null;
            }
            DatagramPacket p = new DatagramPacket(receiveBuffer, receiveBuffer.length);
            try {
                socket.setSoTimeout((int) Math.max(1, Math.min(left, Integer.MAX_VALUE)));
                socket.receive(p);
            } catch (SocketTimeoutException e) {
                return null;
            } catch (IOException e) {
                throw new UserError("receiving on the tester's socket failed: " + e.getMessage(), e);
            }
            if (p.getAddress().equals(target.address())) {
                return new Arrival(Arrays.copyOf(p.getData(), p.getLength()), p.getPort());
            }
            // else not the target's: some other host's traffic to port 4791
        }
    }

    @Override
    public void close() {
        socket.close();
        thirdSocket.close();
    }
}
