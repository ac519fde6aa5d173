package io.jrxe.tools;

import picocli.CommandLine;

/**
 * A bad option or argument: say what was wrong, then print the command's usage (or, for a
 * {@link HintOnBadOptions} command, point to its --help on the same line), and exit 1.
 */
final class UsageOnBadOptions implements CommandLine.IParameterExceptionHandler {
    @Override
    public int handleParseException(CommandLine.ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        String name = cmd.getCommandSpec().qualifiedName();
        if (cmd.getCommandSpec().userObject() instanceof HintOnBadOptions) {
            cmd.getErr().println(name + ": " + e.getMessage() + " (see '" + name + " --help')");
            return 1;
        }
        cmd.getErr().println(name + ": " + e.getMessage());
        cmd.usage(cmd.getErr());
        return 1;
    }
}
