package io.jrxe.tools;

import picocli.CommandLine;

import java.util.List;

/** picocli's complaints about a command line (an unknown option, a value that is not a number) as one line, exit 1. */
final class BadOptionHandler implements CommandLine.IParameterExceptionHandler {
    @Override
    public int handleParseException(CommandLine.ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        List<String> unmatched = cmd.getUnmatchedArguments();
        if (!(e instanceof CommandLine.UnmatchedArgumentException) && !unmatched.isEmpty()) {
            // picocli reports a missing parameter before an unknown option; the typo is the likelier cause of both
            return BadOptionLine.print(cmd, "Unknown option or argument: '" + String.join("', '", unmatched) + "'");
        }
        return BadOptionLine.print(cmd, e.getMessage());
    }
}
