package io.jrxe.verbs;

/** A memory window (ibv_mw): type 1 is bound by {@link #bind}, type 2 by a BIND_MW work request. */
public interface Mw extends AutoCloseable {
    /** The window's R_Key (0 while unbound). */
    int rkey();

    /** The window type, 1 or 2. */
    int type();

    /** ibv_bind_mw for a type 1 window: the new R_Key is returned (and {@link #rkey()} changes). */
    int bind(Mr mr, long addr, long length, int access) throws VerbsException;

    @Override
    void close() throws VerbsException;
}
