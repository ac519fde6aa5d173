/**
 * The verbs API: libibverbs' objects in Java, the same for jrxe's emulated NICs and for the kernel's RDMA
 * devices (rxe0, or a real RNIC).
 *
 * <h2>Start here</h2>
 *
 * A program gets its devices from {@code io.jrxe.verbs.facade.Verbs} (module jrxe-verbs-facade, which brings
 * this one). {@code Verbs.emulated()} makes jrxe NICs: one is a RoCE v2 device on a UDP socket of an address of
 * this machine, port 4791, whose packets are byte for byte those of Linux's Soft-RoCE.
 *
 * <pre>{@code
 * try (var nic = Verbs.emulated().createUdp("jrxe0", InetAddress.getByName("127.0.0.1"));
 *      Context ctx = nic.open()) {
 *     Pd pd = ctx.allocPd();
 *     ...
 * }
 * }</pre>
 *
 * {@code Verbs.device("rxe0")} finds a kernel device instead (through libibverbs), and {@code
 * Verbs.deviceList()} lists both kinds. From the {@link io.jrxe.verbs.Device} on, a program uses only this
 * package, so the same code runs on either.
 *
 * <h2>The objects</h2>
 *
 * <table>
 *   <caption>What libibverbs calls them, and where each comes from</caption>
 *   <tr><th>here</th><th>libibverbs</th><th>made by</th></tr>
 *   <tr><td>{@link io.jrxe.verbs.Device}</td><td>ibv_device</td><td>a provider</td></tr>
 *   <tr><td>{@link io.jrxe.verbs.Context}</td><td>ibv_context</td><td>{@link io.jrxe.verbs.Device#open()}</td></tr>
 *   <tr><td>{@link io.jrxe.verbs.Pd}</td><td>ibv_pd</td><td>{@link io.jrxe.verbs.Context#allocPd()}</td></tr>
 *   <tr><td>{@link io.jrxe.verbs.Mr}</td><td>ibv_mr</td><td>{@link io.jrxe.verbs.Pd#regMr(java.lang.foreign.MemorySegment, int)}:
 *       memory from {@link java.lang.foreign.Arena}, access from {@link io.jrxe.verbs.Access}</td></tr>
 *   <tr><td>{@link io.jrxe.verbs.Cq}</td><td>ibv_cq</td><td>{@link io.jrxe.verbs.Context#createCq(int, CompChannel)}</td></tr>
 *   <tr><td>{@link io.jrxe.verbs.Qp}</td><td>ibv_qp</td><td>{@link io.jrxe.verbs.Pd#createQp(QpInitAttributes)}</td></tr>
 *   <tr><td>{@link io.jrxe.verbs.Srq}, {@link io.jrxe.verbs.Ah}, {@link io.jrxe.verbs.Mw},
 *       {@link io.jrxe.verbs.CompChannel}</td><td>ibv_srq, ibv_ah, ibv_mw, ibv_comp_channel</td>
 *       <td>the PD, or the context for the channel</td></tr>
 * </table>
 *
 * Every one of them is {@link java.lang.AutoCloseable}: closing it is ibv_dealloc_pd, ibv_dereg_mr,
 * ibv_destroy_qp and so on.
 *
 * <h2>A connection and a transfer</h2>
 *
 * A QP goes from RESET to RTS with {@link io.jrxe.verbs.Qp#modify(QpAttributes)}, or in one call with
 * {@link io.jrxe.verbs.QpConnect} towards the {@link io.jrxe.verbs.QpPeer} (QP number, first PSN, GID) the
 * other side sent out of band. The connection manager ({@link io.jrxe.verbs.cm}) connects by IP address
 * instead, as librdmacm does. Then a program posts {@link io.jrxe.verbs.SendWr}s and
 * {@link io.jrxe.verbs.RecvWr}s and polls its CQ into {@link io.jrxe.verbs.WorkCompletion}s it owns:
 *
 * <pre>{@code
 * QpConnect.to(new QpPeer(peerQpn, peerPsn, peerGid)).localPsn(myPsn).apply(qp);
 * SendWr wr = new SendWr(1);
 * wr.opcode = WrOpcode.RDMA_WRITE;
 * wr.flags = SendWr.SIGNALED;
 * wr.sgl.add(buffer.address(), 13, mr.lkey());
 * wr.remoteAddr = peerAddress;
 * wr.rkey = peerRkey;
 * qp.postSend(wr);
 * WorkCompletion[] wc = {new WorkCompletion()};
 * if (cq.poll(wc, 5, TimeUnit.SECONDS) == 0) {
 *     throw new IllegalStateException("no completion within 5 s");
 * }
 * }</pre>
 *
 * {@link io.jrxe.verbs.Cq} says the other ways to wait: a completion channel, a future per work request.
 *
 * <h2>When something is wrong</h2>
 *
 * A verb that is refused throws a {@link io.jrxe.verbs.VerbsException}: its message names the rule and the
 * values, its {@link io.jrxe.verbs.VerbsException#errno()} is the {@link io.jrxe.verbs.Errno} libibverbs
 * would return. A work request that fails on the way (a wrong rkey, memory the peer does not allow) ends in a
 * completion whose {@link io.jrxe.verbs.WorkCompletion#status()} is not {@link io.jrxe.verbs.WcStatus#SUCCESS};
 * {@link io.jrxe.verbs.WcStatus#description()} has ibv_wc_status_str's words for it.
 *
 * <h2>What is not here</h2>
 *
 * What only a jrxe NIC can do (its MTT walk, what a vendor_err means, its NIC thread or the program's thread
 * running it) is in the emulated provider, {@code io.jrxe.verbs.emulated}, where a program that uses it says so.
 * {@link io.jrxe.verbs.spi} is for providers, not programs.
 */
package io.jrxe.verbs;
