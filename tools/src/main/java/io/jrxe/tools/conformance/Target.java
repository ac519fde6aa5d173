package io.jrxe.tools.conformance;

/**
 * What the tester runs its cases against: a jrxe NIC in this process, or a peer behind the rc-ops exchange. Each
 * case gets a fresh QP, connected to the tester's QPN and expecting the case's first PSN, so that a case that
 * moved its QP to the error state leaves the next one a clean start.
 */
interface Target extends AutoCloseable {
    /** One line for the report's head: which target, where. */
    String describe();

    /** Whether the target's inside (counters, memory, completions, UD QP, memory window) is visible. */
    boolean inProcess();

    TargetQp connect(int testerQpn, int startPsn, byte[] testerGid);

    @Override
    void close();
}
