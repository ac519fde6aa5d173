package io.jrxe.tools.common;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The answer every command gives a bad command line: exit status 1, nothing on stdout, and on stderr exactly one
 * line {@code jrxe CMD: ... (see 'jrxe CMD --help')} that contains what the test expects it to name.
 */
public final class BadOptionAnswer {
    private BadOptionAnswer() {
    }

    public static void check(String where, int exit, String out, String err, String command, String... mentions) {
        assertThat(exit).as(where + "\n" + err).isEqualTo(1);
        assertThat(out).as(where).isEmpty();
        assertThat(err.lines().toList()).as(where).hasSize(1);
        String line = err.strip();
        assertThat(line).as(where).startsWith("jrxe " + command + ": ").endsWith("(see 'jrxe " + command + " --help')")
                .doesNotContain("Exception", "Usage:");
        for (String m : mentions) {
            assertThat(line).as(where).contains(m);
        }
    }

    public static void check(InProcess r, String command, String... mentions) {
        check(r.toString(), r.status(), r.out(), r.err(), command, mentions);
    }
}
