package io.jrxe.tools.learn;

import io.jrxe.tools.common.InProcess;

import java.util.ArrayList;
import java.util.List;

/**
 * A lesson's command run as the student types it, in the test's process: `states` on the tests' own loopback
 * addresses, the repository's files (testdata/...) found from wherever the test runs.
 */
final class StudentRun {
    /** The lessons that run `jrxe states` put its NICs here (the tests' own loopback addresses). */
    static final String[] ADDRESSES = {"--addr-a", "127.0.62.1", "--addr-b", "127.0.62.2"};

    private StudentRun() {
    }

    static InProcess of(String command) {
        List<String> args = new ArrayList<>(List.of(LessonText.arguments(List.of(command)).getFirst()));
        args.replaceAll(a -> a.startsWith("testdata/") ? LessonTools.repositoryFile(a).toString() : a);
        if (args.getFirst().equals("states")) {
            args.addAll(List.of(ADDRESSES));
        }
        return InProcess.run(args.toArray(String[]::new));
    }
}
