package io.jrxe.rnic.transport;

import io.jrxe.rnic.NicExecutor;
import io.jrxe.rnic.RnicException;
import io.jrxe.wire.port.InvokerLoop;

/** Control verbs on an invoked NIC: run on the caller's thread while it holds the loop. */
final class InvokerExecutor implements NicExecutor {
    private final InvokerLoop loop;

    InvokerExecutor(InvokerLoop loop) {
        this.loop = loop;
    }

    @Override
    public <T> T call(Command<T> command) throws RnicException {
        return loop.holding(command::run);
    }
}
