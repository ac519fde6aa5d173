/**
 * For providers, not for programs: what an implementation of the verbs API (jrxe's emulated NIC, the native
 * provider over libibverbs) needs from it beyond its interfaces. A program written to {@code io.jrxe.verbs} never
 * imports this package; nothing in {@code io.jrxe.verbs} names its types. It may change with the providers.
 */
package io.jrxe.verbs.spi;
