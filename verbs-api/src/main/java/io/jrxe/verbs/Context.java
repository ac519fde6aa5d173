package io.jrxe.verbs;


import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** An open device (ibv_context): queries, resource creation, async events. */
public interface Context extends AutoCloseable {
    /** The device this context was opened on. */
    Device device();

    /** ibv_query_device: the device's limits and capabilities. */
    DeviceAttributes queryDevice() throws VerbsException;

    /** ibv_query_port: state, MTUs and table sizes of a port (jrxe has port 1). */
    PortInfo queryPort(int port) throws VerbsException;

    /**
     * ibv_query_gid: one entry of a port's GID table. On a jrxe device index 1 is the RoCE v2 GID of its
     * first address, the one to give a peer (index 0 is the RoCE v1 entry of the same address).
     */
    GidEntry queryGid(int port, int index) throws VerbsException;

    /** Every entry of a port's GID table, in index order. */
    List<GidEntry> gidTable(int port) throws VerbsException;

    /** ibv_query_pkey: one entry of a port's P_Key table (0xffff at index 0). */
    int queryPkey(int port, int index) throws VerbsException;

    /** ibv_alloc_pd: a new protection domain. */
    Pd allocPd() throws VerbsException;

    /** ibv_create_comp_channel: a channel to wait on for CQ events. */
    CompChannel createCompChannel() throws VerbsException;

    /** A CQ of at least {@code entries} entries; {@code channel} may be null. */
    Cq createCq(int entries, CompChannel channel) throws VerbsException;

    /** The next async event, or null when none is waiting. */
    AsyncEvent pollAsyncEvent() throws VerbsException;

    /** Waits up to the timeout for an async event; null when none came. */
    AsyncEvent awaitAsyncEvent(long timeout, TimeUnit unit) throws VerbsException, InterruptedException;

    /**
     * The address space this device's implicit on-demand MRs reach ({@link Pd#regMrImplicit}): the segments the
     * program has mapped into it. Every context of one device sees the same one.
     *
     * @throws VerbsException EOPNOTSUPP where the provider keeps none (a kernel device's implicit MRs reach the
     *                        process's own address space)
     */
    default AddressSpace addressSpace() throws VerbsException {
        throw new VerbsException(Errno.EOPNOTSUPP, "the device " + device().name() + " keeps no address space of "
                + "mapped segments");
    }

    /** The device's counters by name (rxe's hw_counters names, then jrxe's drop counters). */
    Map<String, Long> counters() throws VerbsException;

    @Override
    void close() throws VerbsException;
}
