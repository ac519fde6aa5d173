package io.jrxe.tools.perftest;

import io.jrxe.tools.common.OobSocket;

/** perftest's "Ethernet" exchange: the TCP socket, key messages as text. */
record TcpExchange(OobSocket socket) implements ExchangeChannel {
    @Override
    public void write(byte[] bytes, String what) {
        socket.write(bytes, what);
    }

    @Override
    public byte[] readExactly(int n, String what) {
        return socket.readExactly(n, what);
    }

    @Override
    public byte[] readExactlyUnbounded(int n, String what) {
        return socket.readExactlyUnbounded(n, what);
    }

    @Override
    public byte[] readTail(int max, int graceMillis, String what) {
        return socket.readTail(max, graceMillis, what);
    }

    @Override
    public String peer() {
        return socket.peer();
    }

    @Override
    public boolean binaryKeys() {
        return false;
    }

    @Override
    public void close() {
        socket.close();
    }
}
