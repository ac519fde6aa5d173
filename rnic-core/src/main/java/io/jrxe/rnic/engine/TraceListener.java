package io.jrxe.rnic.engine;

/**
 * Receives the engines' trace events as primitive arguments, so that emitting one allocates
 * nothing; with no listener installed the engines skip the call entirely.
 *
 * @param qpn    the local QP
 * @param wrId   the work request, where one is involved (else 0)
 * @param psn    the packet's PSN, where a packet is involved (else -1)
 * @param opcode the packet's BTH opcode, or the work request's opcode ordinal (else -1)
 * @param value  event-specific: bytes, syndrome, completion status ordinal
 */
@FunctionalInterface
public interface TraceListener {
    void event(TraceEvent event, int qpn, long wrId, int psn, int opcode, long value);
}
