package io.jrxe.tools.rdmacm;

/** Teardown at the end of a test program: what cannot be closed goes with the device and the process. */
final class Quietly {
    private Quietly() {
    }

    static void close(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            // the device and the program are going away; nothing is left to do with it
        }
    }
}
