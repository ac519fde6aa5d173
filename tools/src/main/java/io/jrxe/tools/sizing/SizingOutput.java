package io.jrxe.tools.sizing;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** Prints the sizing commands' results; a result past 64 bits or a bad queue option is a bad option (exit 1). */
final class SizingOutput {
    private SizingOutput() {
    }

    /** Prints the MTT's lines (when {@code mtt} is not null), then the queues' (when {@code queues} is not null). */
    static void print(CommandSpec spec, MttSizing mtt, QueueOptions queues) {
        List<String> lines = new ArrayList<>();
        try {
            if (mtt != null) {
                lines.addAll(mtt.explain());
            }
            if (queues != null) {
                String bad = queues.problem();
                if (bad != null) {
                    throw new CommandLine.ParameterException(spec.commandLine(), bad);
                }
                if (!lines.isEmpty()) {
                    lines.add("");
                }
                lines.addAll(queues.sizing().explain());
            }
        } catch (ArithmeticException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "the result is too large (more than 8 EiB)");
        }
        PrintWriter out = spec.commandLine().getOut();
        lines.forEach(out::println);
        out.flush();
    }
}
