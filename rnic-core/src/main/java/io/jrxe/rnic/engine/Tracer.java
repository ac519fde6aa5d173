package io.jrxe.rnic.engine;

/**
 * Where the engines' trace events go: the installed {@link TraceListener}, or nowhere. With none
 * installed an event costs a field read and a branch, and callers that would compute something
 * only for a trace ask {@link #tracing()} first.
 */
final class Tracer {
    private volatile TraceListener listener;

    void install(TraceListener l) {
        listener = l;
    }

    boolean tracing() {
        return listener != null;
    }

    /** The listener, or null (the DMA engine's per-page translation events). */
    TraceListener listener() {
        return listener;
    }

    void trace(TraceEvent event, int qpn, long wrId, int psn, int opcode, long value) {
        TraceListener t = listener;
        if (t != null) {
            t.event(event, qpn, wrId, psn, opcode, value);
        }
    }
}
