package io.jrxe.tools.conformance;

import io.jrxe.verbs.QpState;
import io.jrxe.verbs.WorkCompletion;

/**
 * What the tester can see inside a target that runs in its own process: counters, the case's QP state, the
 * buffer and the completions. A target behind the rc-ops exchange has none (its answers on the wire are all).
 */
public interface TargetInspector {
    /** A device counter by name (rxe's hw_counters names, jrxe_drop_...). */
    long counter(String name);

    QpState rcState();

    byte[] memory(int at, int length);

    /** The next completion of the RC QP's CQ, or null. */
    WorkCompletion pollRc();

    /** The next completion of the UD QP's CQ, or null. */
    WorkCompletion pollUd();
}
