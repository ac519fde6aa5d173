package io.jrxe.verbs.emulated;

import io.jrxe.rnic.Rnic;
import io.jrxe.rnic.qp.QpAttributes;
import io.jrxe.rnic.qp.QpType;
import io.jrxe.rnic.qp.QueuePair;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.VerbsException;

final class EmulatedQp implements Qp {
    private final Rnic rnic;
    private final QueuePair qp;

    EmulatedQp(Rnic rnic, QueuePair qp) {
        this.rnic = rnic;
        this.qp = qp;
    }

    QueuePair qp() {
        return qp;
    }

    @Override
    public int qpNum() {
        return qp.qpn();
    }

    @Override
    public QpType type() {
        return qp.type();
    }

    @Override
    public void modify(QpAttributes attributes) throws VerbsException {
        Commands.run(rnic, () -> qp.modify(attributes, rnic.attributes(), rnic.port()));
    }

    @Override
    public QpAttributes query() throws VerbsException {
        return Commands.call(rnic, qp::query);
    }

    @Override
    public void close() throws VerbsException {
        Commands.run(rnic, () -> rnic.destroyQp(qp));
    }

    @Override
    public String toString() {
        return qp.toString();
    }
}
