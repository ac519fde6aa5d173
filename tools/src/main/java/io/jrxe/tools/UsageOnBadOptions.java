package io.jrxe.tools;

import picocli.CommandLine;

/** A bad option or argument: say what was wrong, print the command's usage, exit 1. */
final class UsageOnBadOptions implements CommandLine.IParameterExceptionHandler {
    @Override
    public int handleParseException(CommandLine.ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        cmd.getErr().println(cmd.getCommandSpec().qualifiedName() + ": " + e.getMessage());
        cmd.usage(cmd.getErr());
        return 1;
    }
}
