package io.jrxe.tools.pingpong;

import io.jrxe.tools.UserError;
import io.jrxe.tools.common.OobSocket;

import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The TCP exchange of rdma-core's pingpong examples. The client sends its address first, reads the server's
 * and sends "done". The server reads the client's address, connects its QP to it (so that it is ready to
 * receive before the client can send), then answers with its own and waits for "done". ibv_srq_pingpong
 * sends a fixed number of address messages whatever its -q (its MAX_QP, 256): one per QP in QP order, then
 * messages that stand for no QP (rdma-core sends whatever its unused array entries hold); both sides read them all
 * and use the first -q.
 */
public final class PingpongExchange {
    private PingpongExchange() {
    }

    public static PingpongDest client(String host, int port, int timeoutMillis, PingpongDest mine) {
        return client(host, port, timeoutMillis, List.of(mine), 1).getFirst();
    }

    /** @param slots how many address messages each side sends: at least {@code mine.size()} */
    public static List<PingpongDest> client(String host, int port, int timeoutMillis, List<PingpongDest> mine, int slots) {
        try (OobSocket s = OobSocket.connect(host, port, timeoutMillis)) {
            writeAll(s, mine, slots);
            List<PingpongDest> remote = readAll(s, mine.size(), slots);
            s.write(PingpongDest.DONE, "\"done\"");
            return remote;
        }
    }

    /**
     * @param connect moves the local QP to RTR/RTS towards the client; runs before the server answers
     */
    public static PingpongDest server(ServerSocket listening, int acceptTimeoutMillis, int timeoutMillis, PingpongDest mine,
                                      Consumer<PingpongDest> connect) {
        return server(listening, acceptTimeoutMillis, timeoutMillis, List.of(mine), 1, r -> connect.accept(r.getFirst()))
                .getFirst();
    }

    /**
     * @param slots   how many address messages each side sends: at least {@code mine.size()}
     * @param connect moves the local QPs to RTR/RTS towards the client's, in order; runs before the server answers
     */
    public static List<PingpongDest> server(ServerSocket listening, int acceptTimeoutMillis, int timeoutMillis,
                                            List<PingpongDest> mine, int slots, Consumer<List<PingpongDest>> connect) {
        try (OobSocket s = OobSocket.accept(listening, acceptTimeoutMillis, timeoutMillis)) {
            List<PingpongDest> remote = readAll(s, mine.size(), slots);
            connect.accept(remote);
            writeAll(s, mine, slots);
            byte[] done = s.readSome(PingpongDest.MESSAGE_SIZE, "\"done\"");
            if (done.length != PingpongDest.DONE.length) {
                throw new UserError("the client " + s.peer() + " ended the exchange with " + done.length
                        + " bytes instead of \"done\" (5 bytes)");
            }
            return remote;
        }
    }

    /** The local addresses, then zero addresses up to {@code slots} messages. */
    private static void writeAll(OobSocket s, List<PingpongDest> mine, int slots) {
        for (PingpongDest d : mine) {
            s.write(d.toWire(), "the local address");
        }
        byte[] none = new PingpongDest(0, 0, 0, new byte[16]).toWire();
        for (int i = mine.size(); i < slots; i++) {
            s.write(none, "the local address");
        }
    }

    /** Reads {@code slots} messages and parses the first {@code count}; the rest stand for no QP and are not read as addresses. */
    private static List<PingpongDest> readAll(OobSocket s, int count, int slots) {
        List<PingpongDest> remote = new ArrayList<>(count);
        for (int i = 0; i < slots; i++) {
            byte[] message = s.readExactly(PingpongDest.MESSAGE_SIZE, "its address");
            if (i < count) {
                remote.add(parse(message, s));
            }
        }
        return remote;
    }

    private static PingpongDest parse(byte[] message, OobSocket s) {
        try {
            return PingpongDest.parse(message);
        } catch (IllegalArgumentException e) {
            throw new UserError("the peer " + s.peer() + " sent " + e.getMessage(), e);
        }
    }
}
