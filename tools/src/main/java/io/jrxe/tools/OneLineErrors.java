package io.jrxe.tools;

import picocli.CommandLine;

/**
 * A command that fails says why in one line and exits 2; users never see a stack trace. A {@link BadOption} found
 * by the command's own checks is a bad command line instead: one line with a pointer to --help, exit 1. Set
 * JRXE_DEBUG=1 to get the trace when reporting a jrxe bug.
 */
final class OneLineErrors implements CommandLine.IExecutionExceptionHandler {
    @Override
    public int handleExecutionException(Exception e, CommandLine cmd, CommandLine.ParseResult parseResult) {
        if (e instanceof BadOption) {
            return BadOptionLine.print(cmd, e.getMessage());
        }
        String message = e.getMessage();
        if (message == null || message.isBlank()) {
            message = "internal error " + e.getClass().getName() + " (a jrxe bug: JRXE_DEBUG=1 shows where)";
        }
        cmd.getErr().println(cmd.getCommandSpec().qualifiedName() + ": " + message);
        if (System.getenv("JRXE_DEBUG") != null) {
            e.printStackTrace(cmd.getErr());
        }
        return 2;
    }
}
