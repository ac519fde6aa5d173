package io.jrxe.tools.perftest;

/** The operation a perftest measures, with the name its header prints (perftest's testsStr). */
public enum Verb {
    SEND("Send"),
    WRITE("RDMA_Write"),
    READ("RDMA_Read"),
    ATOMIC("Atomic");

    private final String title;

    Verb(String title) {
        this.title = title;
    }

    public String title() {
        return title;
    }

    /** Whether the responder posts receives (a send test). */
    boolean receives() {
        return this == SEND;
    }

    /** Reads and atomics are limited by outstanding-read slots and print "Outstand reads". */
    boolean readLike() {
        return this == READ || this == ATOMIC;
    }
}
