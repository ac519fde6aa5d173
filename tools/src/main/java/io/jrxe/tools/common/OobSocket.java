package io.jrxe.tools.common;

import io.jrxe.tools.UserError;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * The out-of-band TCP connection the rdma-core examples and perftest use to trade QP numbers, PSNs, GIDs
 * and keys before any RDMA happens. Every wait on it is bounded: connecting gives up after the timeout
 * (retrying while the server is not listening yet), a read that gets nothing for the timeout fails with a
 * message that says so, and a peer that goes away is reported as such. Only a server waiting for its first
 * client may wait for ever, as the real tools do.
 */
public final class OobSocket implements AutoCloseable {
    private static final long RETRY_PAUSE_MILLIS = 100;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final String peer;
    private final int timeoutMillis;

    private OobSocket(Socket socket, String peer, int timeoutMillis) throws IOException {
        this.socket = socket;
        this.peer = peer;
        this.timeoutMillis = timeoutMillis;
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(timeoutMillis);
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    /**
     * Connects to {@code host:port}, retrying while nothing listens there, until {@code timeoutMillis} passed.
     */
    public static OobSocket connect(String host, int port, int timeoutMillis) {
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            throw new UserError("cannot resolve " + host + ": unknown host");
        }
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        String last = "no address";
        while (true) {
            for (InetAddress address : addresses) {
                long left = Math.max(1, (deadline - System.nanoTime()) / 1_000_000L);
                Socket s = new Socket();
                try {
                    s.connect(new InetSocketAddress(address, port), (int) Math.min(left, Integer.MAX_VALUE));
                    return new OobSocket(s, host + ":" + port, timeoutMillis);
                } catch (SocketTimeoutException e) {
                    last = "no answer";
                } catch (ConnectException e) {
                    last = "connection refused (nothing listens there yet)";
                } catch (NoRouteToHostException e) {
                    last = "no route to host";
                } catch (IOException e) {
                    last = e.getMessage();
                }
                closeQuietly(s);
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new UserError(String.format("couldn't connect to %s:%d within %s: %s", host, port,
                        seconds(timeoutMillis), last));
            }
            try {
                Thread.sleep(Math.min(RETRY_PAUSE_MILLIS, Math.max(1, (deadline - System.nanoTime()) / 1_000_000L)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new UserError("interrupted while connecting to " + host + ":" + port);
            }
        }
    }

    /** A listening socket on every local address at {@code port}, as the real servers bind. */
    public static ServerSocket listen(int port) {
        try {
            ServerSocket server = new ServerSocket();
            server.setReuseAddress(true);
            server.bind(new InetSocketAddress(port), 1);
            return server;
        } catch (IOException e) {
            throw new UserError("couldn't listen to TCP port " + port + ": " + e.getMessage(), e);
        }
    }

    /**
     * Takes the first client of {@code server} (then closes it, as the real servers do), waiting at most
     * {@code acceptTimeoutMillis} (0: for ever).
     */
    public static OobSocket accept(ServerSocket server, int acceptTimeoutMillis, int timeoutMillis) {
        try (server) {
            return acceptNext(server, acceptTimeoutMillis, timeoutMillis);
        } catch (IOException e) {
            throw new UserError("closing TCP port " + server.getLocalPort() + " failed: " + e.getMessage(), e);
        }
    }

    /** Takes the next client of {@code server} and leaves it listening, for a server of one client after another. */
    public static OobSocket acceptNext(ServerSocket server, int acceptTimeoutMillis, int timeoutMillis) {
        try {
            server.setSoTimeout(acceptTimeoutMillis);
            Socket s = server.accept();
            return new OobSocket(s, s.getInetAddress().getHostAddress() + ":" + s.getPort(), timeoutMillis);
        } catch (SocketTimeoutException e) {
            throw new UserError("no client connected to TCP port " + server.getLocalPort() + " within "
                    + seconds(acceptTimeoutMillis));
        } catch (IOException e) {
            throw new UserError("accept() on TCP port " + server.getLocalPort() + " failed: " + e.getMessage(), e);
        }
    }

    /** Reads exactly {@code n} bytes, waiting at most the timeout for each piece. */
    public byte[] readExactly(int n, String what) {
        return readExactly(n, what, timeoutMillis);
    }

    /**
     * Reads exactly {@code n} bytes while the peer is busy with something that may take long (a whole test):
     * no time limit, but the peer closing the connection ends the wait.
     */
    public byte[] readExactlyUnbounded(int n, String what) {
        return readExactly(n, what, 0);
    }

    private byte[] readExactly(int n, String what, int timeout) {
        byte[] b = new byte[n];
        int got = 0;
        try {
            socket.setSoTimeout(timeout);
            while (got < n) {
                int r = in.read(b, got, n - got);
                if (r < 0) {
                    throw new EOFException();
                }
                got += r;
            }
            return b;
        } catch (SocketTimeoutException e) {
            throw new UserError(String.format("timed out after %s waiting for the peer %s to send %s (%d of %d bytes came)",
                    seconds(timeout), peer, what, got, n));
        } catch (EOFException e) {
            throw new UserError(String.format("the peer %s closed the connection while jrxe waited for %s (%d of %d bytes came)",
                    peer, what, got, n));
        } catch (IOException e) {
            throw new UserError("reading " + what + " from " + peer + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * One read of at most {@code max} bytes, as C's read() does: the rdma-core servers read their client's
     * final "done" this way.
     */
    public byte[] readSome(int max, String what) {
        byte[] b = new byte[max];
        try {
            socket.setSoTimeout(timeoutMillis);
            int r = in.read(b);
            if (r < 0) {
                throw new UserError(String.format("the peer %s closed the connection while jrxe waited for %s", peer, what));
            }
            return Arrays.copyOf(b, r);
        } catch (SocketTimeoutException e) {
            throw new UserError(String.format("timed out after %s waiting for the peer %s to send %s",
                    seconds(timeoutMillis), peer, what));
        } catch (IOException e) {
            throw new UserError("reading " + what + " from " + peer + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * Up to {@code max} more bytes of a message whose length the peer's build decides: those that come within
     * {@code graceMillis}, none if the peer sent no more (it then waits for an answer). The end of a message written
     * at once comes with its start, in one TCP segment, so the grace only delays a peer that sent the shorter form.
     */
    public byte[] readTail(int max, int graceMillis, String what) {
        byte[] b = new byte[max];
        int got = 0;
        try {
            socket.setSoTimeout(graceMillis);
            while (got < max) {
                int r = in.read(b, got, max - got);
                if (r < 0) {
                    break;
                }
                got += r;
            }
        } catch (SocketTimeoutException e) {
            // the peer sent the shorter form
        } catch (IOException e) {
            throw new UserError("reading " + what + " from " + peer + " failed: " + e.getMessage(), e);
        }
        return Arrays.copyOf(b, got);
    }

    public void write(byte[] bytes, String what) {
        try {
            out.write(bytes);
            out.flush();
        } catch (IOException e) {
            throw new UserError("sending " + what + " to " + peer + " failed: " + e.getMessage(), e);
        }
    }

    public String peer() {
        return peer;
    }

    @Override
    public void close() {
        closeQuietly(socket);
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // nothing left to do with it
        }
    }

    /** A duration for messages: "5 s", or "2.5 s". */
    public static String seconds(int millis) {
        return millis % 1000 == 0 ? (millis / 1000) + " s" : String.format("%.1f s", millis / 1000.0);
    }
}
