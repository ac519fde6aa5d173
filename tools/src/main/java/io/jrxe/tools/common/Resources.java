package io.jrxe.tools.common;

/** Releasing what a command made, when it ends either way. */
public final class Resources {
    private Resources() {
    }

    /** Closes each resource that is not null, in order, going on past any that fails: the device is closed next. */
    public static void closeQuietly(AutoCloseable... resources) {
        for (AutoCloseable r : resources) {
            if (r == null) {
                continue;
            }
            try {
                r.close();
            } catch (Exception e) {
                // the device is closed next, with whatever it still holds
            }
        }
    }
}
