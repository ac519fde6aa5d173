package io.jrxe.verbs.nativ;

import io.jrxe.verbs.Errno;
import io.jrxe.verbs.VerbsException;

/**
 * A verb the kernel device or libibverbs refused. {@link #errno()} is the nearest errno jrxe
 * names (EINVAL when it names none); {@link #nativeErrno()} is the exact number libibverbs gave.
 */
public final class NativeVerbsException extends VerbsException {
    private final int nativeErrno;

    NativeVerbsException(int nativeErrno, String message) {
        super(nearest(nativeErrno), message);
        this.nativeErrno = nativeErrno;
    }

    public int nativeErrno() {
        return nativeErrno;
    }

    /** "ibv_create_qp: Invalid argument (errno 22)". */
    static NativeVerbsException of(String verb, int errno) {
        return new NativeVerbsException(errno, verb + ": " + Libc.strerror(errno) + " (errno " + errno + ")");
    }

    /** A post the provider refused, worded as jrxe's posts say it: "work request N of the chain: ...". */
    static NativeVerbsException posting(int badIndex, String verb, int rc) {
        int errno = Math.abs(rc);
        return new NativeVerbsException(errno, "work request " + badIndex + " of the chain: " + verb + ": "
                + Libc.strerror(errno) + " (errno " + errno + ")");
    }

    private static Errno nearest(int errno) {
        for (Errno e : Errno.values()) {
            if (e.value() == errno) {
                return e;
            }
        }
        return Errno.EINVAL;
    }
}
