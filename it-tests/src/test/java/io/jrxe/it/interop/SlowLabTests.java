package io.jrxe.it.interop;

import org.junit.jupiter.api.Assumptions;

/**
 * Lab tests that a build has no time for unless asked with {@code -Djrxe.lab.slow=true}: each is skipped with a
 * printed reason otherwise, before its lab boots.
 */
final class SlowLabTests {
    static final String PROPERTY = "jrxe.lab.slow";

    private SlowLabTests() {
    }

    /** Skips the calling class (from its {@code @BeforeAll}) unless slow lab tests were asked for; {@code why} says why. */
    static void skipUnlessAsked(String why) {
        if (!Boolean.getBoolean(PROPERTY)) {
            String reason = why + ": run it with -D" + PROPERTY + "=true";
            System.out.println("interop: skipped: " + reason);
            Assumptions.abort(reason);
        }
    }
}
