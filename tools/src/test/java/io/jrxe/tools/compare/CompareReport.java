package io.jrxe.tools.compare;

import io.jrxe.tools.common.InProcess;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** A `jrxe compare` run's output cut into its steps, and a test of a row whose two columns agree. */
final class CompareReport {
    private CompareReport() {
    }

    /** The lines of each numbered step, its title line first. */
    static List<List<String>> steps(InProcess run) {
        List<List<String>> steps = new ArrayList<>();
        for (String l : run.lines()) {
            if (l.matches("\\d+\\. .*")) {
                steps.add(new ArrayList<>());
            }
            if (!steps.isEmpty()) {
                steps.getLast().add(l);
            }
        }
        return steps;
    }

    /** A row with {@code label} (empty: a row that continues the one above) whose two columns both match {@code value}. */
    static Predicate<String> both(String label, String value) {
        return l -> l.matches("  " + label + " +(" + value + ") +\\1");
    }
}
