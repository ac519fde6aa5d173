/**
 * The emulated provider: jrxe's own NICs behind the verbs API (package {@code io.jrxe.verbs}). A program reaches it
 * through {@code io.jrxe.verbs.facade.Verbs.emulated()}.
 *
 * <p>What a program needs is said in verbs terms: {@link io.jrxe.verbs.emulated.EmulatedProvider#createUdp(String,
 * java.net.InetAddress, Progress)} makes a NIC, {@link io.jrxe.verbs.emulated.Progress} says which thread runs
 * it, {@link io.jrxe.verbs.emulated.EmulatedDevice#warmUp()} runs its data path once before it meets a peer, and
 * {@link io.jrxe.verbs.emulated.EmulatedExtension} has what only a jrxe NIC can do (its MTT walk, what a
 * vendor_err means). The methods that take rnic-core's or wire's types ({@code DeviceConfig}, {@code NicContext},
 * a simulated network) and {@link io.jrxe.verbs.emulated.EmulatedDevice#nic()} are for jrxe's command line and
 * tests, which build NICs from parts; a program that uses them is tied to jrxe's insides.
 */
package io.jrxe.verbs.emulated;
