package io.jrxe.tools.mistakes;

import java.util.ArrayList;
import java.util.List;

/**
 * What one mistake's section says: what the program did, the packets that crossed (or none), what came back (a
 * completion, a refused verb, an async event), the rule that fired and the fix; and whether jrxe behaved as the
 * section expects, with what was expected when it did not.
 */
final class Section {
    final String id;
    final String title;
    final List<String> did = new ArrayList<>();
    final List<String> packets = new ArrayList<>();
    final List<String> result = new ArrayList<>();
    String rule;
    String fix;
    /** Null when jrxe behaved as expected, else what was expected. */
    String unexpected;

    Section(String id, String title) {
        this.id = id;
        this.title = title;
    }

    Section did(String line) {
        did.add(line);
        return this;
    }

    Section result(String line) {
        result.add(line);
        return this;
    }

    /** Records a check: when {@code ok} is false, the section did not behave as {@code expectation} says. */
    void expect(boolean ok, String expectation) {
        if (!ok && unexpected == null) {
            unexpected = expectation;
        }
    }
}
