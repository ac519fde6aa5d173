package io.jrxe.rnic.transport;

import io.jrxe.rnic.NicExecutor;
import io.jrxe.rnic.RnicException;
import io.jrxe.verbs.Errno;
import io.netty.channel.EventLoop;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Control verbs as commands on the device's event loop (its NIC thread); the caller waits. */
final class EventLoopExecutor implements NicExecutor {
    private static final long COMMAND_TIMEOUT_SECONDS = 30;
    private final EventLoop loop;

    EventLoopExecutor(EventLoop loop) {
        this.loop = loop;
    }

    @Override
    public <T> T call(Command<T> command) throws RnicException {
        if (loop.inEventLoop()) {
            return command.run();
        }
        if (loop.isShuttingDown()) {
            throw new RnicException(Errno.ENODEV, "the device is closed");
        }
        Future<Object> f;
        try {
            f = loop.submit(() -> {
                try {
                    return command.run();
                } catch (RnicException e) {
                    return e;
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            throw new RnicException(Errno.ENODEV, "the device is closed");
        }
        Object result;
        try {
            result = f.get(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RnicException(Errno.EAGAIN, "interrupted while waiting for the NIC thread");
        } catch (ExecutionException e) {
            throw new IllegalStateException("a control verb failed on the NIC thread: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new RnicException(Errno.EAGAIN, "the NIC thread did not answer within "
                    + COMMAND_TIMEOUT_SECONDS + " s");
        }
        if (result instanceof RnicException e) {
            throw e;
        }
        @SuppressWarnings("unchecked")
        T t = (T) result;
        return t;
    }
}
