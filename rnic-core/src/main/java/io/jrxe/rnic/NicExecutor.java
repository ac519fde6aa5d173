package io.jrxe.rnic;

/**
 * Where control verbs run: on the NIC thread that owns the device's state, the caller waiting
 * for the result. The simulated network runs everything on one thread and executes commands
 * inline; the UDP transport hands them to the device's event loop.
 */
public interface NicExecutor {
    /** A control verb: runs on the NIC thread, returns its result or throws the refusal. */
    @FunctionalInterface
    interface Command<T> {
        T run() throws RnicException;
    }

    <T> T call(Command<T> command) throws RnicException;

    /** Runs commands on the calling thread (single-threaded simulation and unit tests). */
    NicExecutor INLINE = new NicExecutor() {
        @Override
        public <T> T call(Command<T> command) throws RnicException {
            return command.run();
        }
    };
}
