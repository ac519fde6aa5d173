package io.jrxe.tools.perftest;

/**
 * What perftest's exchange runs over: the TCP socket (its "Ethernet" data exchange method), or with -R a QP that
 * the connection manager connected ("rdma_cm"), where every piece is one SEND. {@link PerftestConnection} speaks
 * the same pieces over either; only the key messages differ (text over TCP, perftest's binary struct over a QP).
 */
interface ExchangeChannel extends AutoCloseable {
    void write(byte[] bytes, String what);

    /** The next {@code n} bytes, waiting at most the connection's timeout. */
    byte[] readExactly(int n, String what);

    /** As {@link #readExactly}, for as long as the peer is there. */
    byte[] readExactlyUnbounded(int n, String what);

    /** Up to {@code max} bytes that follow what was read, waiting at most {@code graceMillis} for them. */
    byte[] readTail(int max, int graceMillis, String what);

    /** The peer, for messages. */
    String peer();

    /** True when the key messages are perftest's binary struct pingpong_dest (rdma_write_keys), not text. */
    boolean binaryKeys();

    @Override
    void close();
}
