package io.jrxe.verbs;

import io.jrxe.rnic.qp.QpAttributes;
import io.jrxe.rnic.qp.QpType;

/** A queue pair (ibv_qp): modify it through its states, then post work to it. */
public interface Qp extends AutoCloseable {
    int qpNum();

    QpType type();

    /** ibv_modify_qp: the attributes set on {@code attributes} are its mask. */
    void modify(QpAttributes attributes) throws VerbsException;

    /** ibv_query_qp: every attribute. */
    QpAttributes query() throws VerbsException;

    @Override
    void close() throws VerbsException;
}
