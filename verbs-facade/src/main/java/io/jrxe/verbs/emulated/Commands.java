package io.jrxe.verbs.emulated;

import io.jrxe.rnic.NicExecutor;
import io.jrxe.rnic.NicResources;
import io.jrxe.rnic.RnicException;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.VerbsException;

/** Runs a control verb on the device's NIC thread and turns a refusal into a {@link VerbsException}. */
final class Commands {
    private Commands() {
    }

    static <T> T call(NicResources rnic, NicExecutor.Command<T> command) throws VerbsException {
        try {
            return rnic.executor().call(command);
        } catch (RnicException e) {
            throw refused(e);
        }
    }

    /** The verbs form of the NIC's refusal: its errno and message, with it as the cause. */
    static VerbsException refused(RnicException e) {
        return new VerbsException(e.errno(), e);
    }

    static void run(NicResources rnic, Action action) throws VerbsException {
        call(rnic, () -> {
            action.run();
            return null;
        });
    }

    @FunctionalInterface
    interface Action {
        void run() throws RnicException;
    }

    /** The emulated object behind a facade object, or a clear refusal when it comes from elsewhere. */
    static <T> T own(Object facadeObject, Class<T> type, String what) throws VerbsException {
        if (!type.isInstance(facadeObject)) {
            throw new VerbsException(Errno.EINVAL, what + " " + facadeObject
                    + " does not belong to an emulated jrxe device");
        }
        return type.cast(facadeObject);
    }
}
