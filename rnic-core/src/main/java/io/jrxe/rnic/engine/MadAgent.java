package io.jrxe.rnic.engine;

/**
 * The consumer of one management class's MADs behind QP1 (the CM, for class 0x07). The GSI QP
 * hands it each MAD whose transport headers, length, base version and class version it checked
 * through the agent's {@link MadInbox}, and never calls the agent; the agent runs on the NIC
 * thread in its own task, drops what it cannot use through {@link GsiQp#dropped} and never throws.
 */
public interface MadAgent {
    /** The class version this agent speaks (2 for the CM); MADs of another are dropped before it. */
    int classVersion();

    /** Where QP1 leaves this agent's MADs. */
    MadInbox inbox();
}
