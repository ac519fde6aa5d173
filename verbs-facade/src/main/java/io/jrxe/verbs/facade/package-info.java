/**
 * Where a program starts: {@link io.jrxe.verbs.facade.Verbs}, which makes jrxe's NICs and finds the kernel's RDMA
 * devices, all of them spoken to through the verbs API (package {@code io.jrxe.verbs}).
 *
 * <h2>A jrxe NIC</h2>
 *
 * {@link io.jrxe.verbs.facade.Verbs#emulated()} is the emulated provider. A NIC it makes is a RoCE v2 device on
 * a UDP socket of one of this machine's addresses, port 4791; two NICs on two loopback addresses talk to each
 * other as two hosts would, and one talks to a kernel Soft-RoCE peer on the network as well.
 *
 * <pre>{@code
 * import io.jrxe.verbs.*;
 * import io.jrxe.verbs.facade.Verbs;
 *
 * try (var nic = Verbs.emulated().createUdp("jrxe0", InetAddress.getByName("127.0.0.1"));
 *      Context ctx = nic.open()) {
 *     nic.warmUp();                        // before a peer's timeouts depend on the first packets' speed
 *     Pd pd = ctx.allocPd();
 *     Cq cq = ctx.createCq(16, null);
 *     ...
 * }
 * }</pre>
 *
 * <ul>
 *   <li>{@link io.jrxe.verbs.emulated.EmulatedProvider#createUdp(String, java.net.InetAddress)}: the NIC runs on a
 *       thread of its own, and the program only posts and polls.</li>
 *   <li>{@link io.jrxe.verbs.emulated.EmulatedProvider#createUdp(String, java.net.InetAddress,
 *       io.jrxe.verbs.emulated.Progress) createUdp(name, address, Progress.INVOKER)}: the program's thread runs the
 *       NIC whenever it polls a CQ or posts (a standby thread while it does neither): one busy thread per process
 *       instead of two, the better choice for latency on a machine with few cores.</li>
 *   <li>A refusal is a {@link io.jrxe.verbs.VerbsException}: EADDRINUSE when the address's port 4791 is taken
 *       (by another jrxe NIC, or by a kernel rxe device, which holds it on every address) or the address is not
 *       this machine's; EINVAL when the name is blank or already a device's.</li>
 *   <li>Closing the NIC unlists it and releases its socket and thread.</li>
 * </ul>
 *
 * <h2>A kernel device</h2>
 *
 * {@link io.jrxe.verbs.facade.Verbs#device(String) Verbs.device("rxe0")} opens the kernel's device of that name
 * through libibverbs (package {@code io.jrxe.verbs.nativ}), and
 * {@link io.jrxe.verbs.facade.Verbs#deviceList()} lists the jrxe NICs of this JVM and the kernel's devices.
 * Without libibverbs or kernel RDMA there are no native devices, and
 * {@code Verbs.nativeProvider().whyNoDevices()} says why.
 *
 * <h2>Connecting</h2>
 *
 * Two QPs connect by hand, each told the other's QP number, first PSN and GID
 * ({@link io.jrxe.verbs.QpConnect}, {@link io.jrxe.verbs.QpPeer}), or by IP address through the connection
 * manager, {@code Verbs.emulated().rdmaCm()} or {@code Verbs.nativeProvider().rdmaCm()}
 * (package {@code io.jrxe.verbs.cm}, librdmacm's shape).
 *
 * <h2>Running</h2>
 *
 * A program that uses jrxe runs with {@code --enable-native-access=ALL-UNNAMED} (Netty's epoll, and libibverbs
 * through {@code java.lang.foreign}). jrxe's libraries bring no logging library or binding: reading capture files
 * (jrxe-wire's {@code CaptureReader}) needs Pcap4J, an optional dependency that a program adds when it reads them,
 * and with it SLF4J 1.7, for which the program then chooses a binding.
 */
package io.jrxe.verbs.facade;
