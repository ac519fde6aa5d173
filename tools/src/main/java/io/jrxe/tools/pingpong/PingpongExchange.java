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
 * receive before the client can send), then answers with its own and waits for "done". With several QPs
 * (ibv_srq_pingpong) each side sends one address message per QP, in QP order, where the others send one.
 */
public final class PingpongExchange {
    private PingpongExchange() {
    }

    public static PingpongDest client(String host, int port, int timeoutMillis, PingpongDest mine) {
        return client(host, port, timeoutMillis, List.of(mine)).getFirst();
    }

    public static List<PingpongDest> client(String host, int port, int timeoutMillis, List<PingpongDest> mine) {
        try (OobSocket s = OobSocket.connect(host, port, timeoutMillis)) {
            for (PingpongDest d : mine) {
                s.write(d.toWire(), "the local address");
            }
            List<PingpongDest> remote = readAll(s, mine.size());
            s.write(PingpongDest.DONE, "\"done\"");
            return remote;
        }
    }

    /**
     * @param connect moves the local QP to RTR/RTS towards the client; runs before the server answers
     */
    public static PingpongDest server(ServerSocket listening, int acceptTimeoutMillis, int timeoutMillis, PingpongDest mine,
                                      Consumer<PingpongDest> connect) {
        return server(listening, acceptTimeoutMillis, timeoutMillis, List.of(mine), r -> connect.accept(r.getFirst())).getFirst();
    }

    /**
     * @param connect moves the local QPs to RTR/RTS towards the client's, in order; runs before the server answers
     */
    public static List<PingpongDest> server(ServerSocket listening, int acceptTimeoutMillis, int timeoutMillis,
                                            List<PingpongDest> mine, Consumer<List<PingpongDest>> connect) {
        try (OobSocket s = OobSocket.accept(listening, acceptTimeoutMillis, timeoutMillis)) {
            List<PingpongDest> remote = readAll(s, mine.size());
            connect.accept(remote);
            for (PingpongDest d : mine) {
                s.write(d.toWire(), "the local address");
            }
            byte[] done = s.readSome(PingpongDest.MESSAGE_SIZE, "\"done\"");
            if (done.length != PingpongDest.DONE.length) {
                throw new UserError("the client " + s.peer() + " ended the exchange with " + done.length
                        + " bytes instead of \"done\" (5 bytes)");
            }
            return remote;
        }
    }

    private static List<PingpongDest> readAll(OobSocket s, int count) {
        List<PingpongDest> remote = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            remote.add(parse(s.readExactly(PingpongDest.MESSAGE_SIZE, "its address"), s));
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
