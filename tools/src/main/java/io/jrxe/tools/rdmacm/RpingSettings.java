package io.jrxe.tools.rdmacm;

import java.io.PrintWriter;

/**
 * What rping's options set for a run, and where it prints: ping data (-v) and debug lines (-d) to stdout, every
 * complaint to stderr, as rping does.
 *
 * @param count    pings to make, 0 for ever (-C)
 * @param size     bytes of each ping's buffer (-S)
 * @param verbose  print the ping data (-v)
 * @param validate the client compares what came back with what it sent (-V)
 * @param debug    print what happens step by step (-d)
 */
record RpingSettings(int count, int size, boolean verbose, boolean validate, boolean debug, PrintWriter out,
                     PrintWriter err) {
    /** A -d line on stdout. */
    void debug(String format, Object... args) {
        if (debug) {
            out.printf(format + "%n", args);
            out.flush();
        }
    }

    /** A complaint on stderr. */
    void complain(String format, Object... args) {
        err.printf(format + "%n", args);
        err.flush();
    }

    /** What rping prints for a pointer (%p): an identity, never an address (Java has none to show). */
    static String pointer(Object o) {
        return "0x" + Integer.toHexString(System.identityHashCode(o));
    }
}
