package io.jrxe.tools;

import picocli.CommandLine;

/**
 * The one line every command answers a bad option or value with, whoever found it (picocli's parser or the
 * command's checks): {@code jrxe CMD: OPTION VALUE: what is allowed (see 'jrxe CMD --help')}; the exit status is 1.
 * The whole usage is a --help away: printed on every typo it buries the one thing that was wrong.
 */
final class BadOptionLine {
    static final int EXIT_STATUS = 1;

    private BadOptionLine() {
    }

    static int print(CommandLine cmd, String message) {
        String name = cmd.getCommandSpec().qualifiedName();
        // one line, whatever the message: a multi-line one would read as several complaints
        String oneLine = message == null ? "bad command line" : message.strip().replaceAll("\\s*\\R\\s*", "; ");
        cmd.getErr().println(name + ": " + oneLine + " (see '" + name + " --help')");
        return EXIT_STATUS;
    }
}
