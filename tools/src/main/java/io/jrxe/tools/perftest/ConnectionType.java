package io.jrxe.tools.perftest;

import io.jrxe.verbs.QpType;

/**
 * perftest's -c: the transport of the test's QPs. {@link #number} is perftest's own numbering (its connStr
 * order), which its parameter negotiation sends.
 */
enum ConnectionType {
    RC(QpType.RC, 0),
    UC(QpType.UC, 1),
    UD(QpType.UD, 2);

    private final QpType qpType;
    private final int number;

    ConnectionType(QpType qpType, int number) {
        this.qpType = qpType;
        this.number = number;
    }

    QpType qpType() {
        return qpType;
    }

    int number() {
        return number;
    }

    /** Connected transports have a peer QP, a path MTU and PSNs to agree on in RTR; UD has an address handle per message. */
    boolean connected() {
        return this != UD;
    }
}
