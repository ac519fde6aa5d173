package io.jrxe.verbs.cm;

import io.jrxe.verbs.Context;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.VerbsException;

import java.net.InetSocketAddress;

/**
 * A communication identifier (librdmacm's rdma_cm_id): the RDMA counterpart of a socket. An
 * active side resolves the peer's IP address to a local device ({@link #resolveAddr}), resolves
 * the route, creates its QP on the identifier and connects; a passive side binds an address and
 * port, listens, and accepts or rejects each CONNECT_REQUEST's new identifier. Every step that
 * waits for the network answers with an event on the identifier's {@link CmEventChannel}.
 *
 * <p>The QP an identifier holds is moved through INIT, RTR and RTS by the connection manager
 * with what the exchange carried; the program only posts to it. An identifier belongs to one
 * thread at a time.
 */
public interface CmId extends AutoCloseable {
    /** The port space it was made in. */
    PortSpace portSpace();

    /** What the program gave rdma_create_id (for a CONNECT_REQUEST's identifier, the listener's). */
    Object userContext();

    /** The channel its events arrive on. */
    CmEventChannel channel();

    /**
     * rdma_bind_addr: takes a local address and port (port 0: one is chosen). A specific address binds
     * the identifier to the device that has it; the wildcard address (0.0.0.0 or ::) to every device.
     *
     * @throws VerbsException EADDRINUSE when the port is taken, EADDRNOTAVAIL when no device has the address
     */
    void bindAddr(InetSocketAddress address) throws VerbsException;

    /**
     * rdma_resolve_addr: finds the local device that reaches {@code destination} (from {@code source}
     * when given, else the identifier's bound address, else any suitable device) and binds to it;
     * ADDR_RESOLVED follows, or ADDR_ERROR when the resolution fails later.
     *
     * @throws VerbsException at once, without an event, when no device can reach the destination (ENETUNREACH, as
     *                        rdma_resolve_addr when the kernel has no route)
     */
    void resolveAddr(InetSocketAddress source, InetSocketAddress destination, int timeoutMillis) throws VerbsException;

    /** rdma_resolve_route: the path to the resolved destination; ROUTE_RESOLVED or ROUTE_ERROR follows. */
    void resolveRoute(int timeoutMillis) throws VerbsException;

    /** rdma_listen: connection requests to the bound address and port arrive as CONNECT_REQUEST. */
    void listen(int backlog) throws VerbsException;

    /**
     * rdma_connect: sends the connection request (TCP port space: REQ; UDP: SIDR_REQ) with the
     * parameters; ESTABLISHED, REJECTED, UNREACHABLE or CONNECT_ERROR follows.
     */
    void connect(ConnectionParameters parameters) throws VerbsException;

    /**
     * rdma_accept on a CONNECT_REQUEST's identifier: moves its QP to RTR and RTS and answers (REP or
     * SIDR_REP); for the TCP port space ESTABLISHED follows when the peer's RTU arrives.
     */
    void accept(ConnectionParameters parameters) throws VerbsException;

    /** rdma_reject on a CONNECT_REQUEST's identifier: a REJ (reason 28, consumer reject) with the private data. */
    void reject(byte[] privateData) throws VerbsException;

    /** rdma_disconnect: moves the QP to ERR and sends a DREQ (or answers the peer's); DISCONNECTED follows. */
    void disconnect() throws VerbsException;

    /**
     * rdma_create_qp: a QP on the identifier's device, in {@code pd} (null: the device's default PD),
     * of the identifier's transport (RC for TCP, UD for UDP), moved to INIT (UD: to RTS) by the CM.
     */
    Qp createQp(Pd pd, QpInitAttributes attributes) throws VerbsException;

    /** rdma_destroy_qp. */
    void destroyQp() throws VerbsException;

    /** Its QP, or null. */
    Qp qp();

    /** The PD its QP was made in (the device's default one when createQp was given none), or null (librdmacm's id->pd). */
    Pd pd();

    /** The open device it is bound to, or null before an address binds or resolves (librdmacm's id->verbs). */
    Context context();

    /** The device port it is bound to (1), or 0 before. */
    int portNum();

    /** Its local address and port, or null before it has one. */
    InetSocketAddress localAddress();

    /** The peer's address and port, or null before it has one. */
    InetSocketAddress remoteAddress();

    /** rdma_destroy_id: stops listening, destroys nothing the program made (its QP must be destroyed first). */
    @Override
    void close() throws VerbsException;
}
