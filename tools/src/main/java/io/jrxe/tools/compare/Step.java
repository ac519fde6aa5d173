package io.jrxe.tools.compare;

import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.VerbsException;

import java.util.function.Function;

/**
 * One step of a scenario: a title, the connection attributes it needs, and what it does through {@link StepEnv}
 * (post work, wait for the completions it expects). It returns what it finds in memory afterwards, in words that
 * are the same on every setup when the setups behave the same. A timed step measures speed: its completions are
 * compared, its counters and packets depend on timing (retransmissions, ACK coalescing) and are only shown.
 */
record Step(String id, Function<Mtu, String> title, QpSettings settings, boolean timed, Body body) {
    @FunctionalInterface
    interface Body {
        String run(StepEnv env) throws VerbsException;
    }

    static Step of(String id, String title, Body body) {
        return new Step(id, mtu -> title, QpSettings.DEFAULT, false, body);
    }

    static Step of(String id, Function<Mtu, String> title, QpSettings settings, Body body) {
        return new Step(id, title, settings, false, body);
    }

    static Step timed(String id, String title, Body body) {
        return new Step(id, mtu -> title, QpSettings.DEFAULT, true, body);
    }
}
