package io.jrxe.verbs.emulated;

import io.jrxe.verbs.VerbsException;

/**
 * What a context or a PD made and closes with itself (a PD, a CQ, a completion channel; a QP, an MR, ...): whether it
 * was closed, and its close.
 */
interface OwnedByContext {
    boolean isClosed();

    void close() throws VerbsException;
}
