package io.jrxe.verbs;


import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** An open device (ibv_context): queries, resource creation, async events. */
public interface Context extends AutoCloseable {
    Device device();

    DeviceAttributes queryDevice() throws VerbsException;

    PortInfo queryPort(int port) throws VerbsException;

    GidEntry queryGid(int port, int index) throws VerbsException;

    List<GidEntry> gidTable(int port) throws VerbsException;

    int queryPkey(int port, int index) throws VerbsException;

    Pd allocPd() throws VerbsException;

    CompChannel createCompChannel() throws VerbsException;

    /** A CQ of at least {@code entries} entries; {@code channel} may be null. */
    Cq createCq(int entries, CompChannel channel) throws VerbsException;

    /** The next async event, or null when none is waiting. */
    AsyncEvent pollAsyncEvent() throws VerbsException;

    /** Waits up to the timeout for an async event; null when none came. */
    AsyncEvent awaitAsyncEvent(long timeout, TimeUnit unit) throws VerbsException, InterruptedException;

    /** The device's counters by name (rxe's hw_counters names, then jrxe's drop counters). */
    Map<String, Long> counters() throws VerbsException;

    @Override
    void close() throws VerbsException;
}
