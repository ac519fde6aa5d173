package io.jrxe.tools;

import io.jrxe.tools.common.BadOptionAnswer;
import io.jrxe.tools.common.InProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One rule for every command's bad command line: exit 1, nothing on stdout, one line on stderr that names the
 * option and points to the command's --help; and that --help, on every command, prints the usage and exits 0. The
 * commands are taken from `jrxe` itself, so a new one is covered.
 */
class BadCommandLineTest {
    static List<String> commands() {
        return JrxeMain.commandLine().getSubcommands().keySet().stream().filter(c -> !c.equals("help")).toList();
    }

    /** Every command with its first option that takes a number: "many" is no number of anything. */
    static Stream<String[]> numericOptions() {
        CommandLine jrxe = JrxeMain.commandLine();
        return commands().stream().flatMap(c -> jrxe.getSubcommands().get(c).getCommandSpec().options().stream()
                .filter(BadCommandLineTest::takesANumber).findFirst().map(o -> new String[] {c, o.longestName()}).stream());
    }

    /** The commands whose -p is a port (udaddy's -p is a port space number, as in the real udaddy). */
    static List<String> commandsWithATcpPort() {
        CommandLine jrxe = JrxeMain.commandLine();
        return commands().stream().filter(c -> {
            OptionSpec p = jrxe.getSubcommands().get(c).getCommandSpec().findOption("-p");
            return p != null && p.paramLabel().equals("PORT");
        }).toList();
    }

    private static boolean takesANumber(OptionSpec o) {
        Class<?> t = o.type();
        return t == int.class || t == long.class || t == double.class || t == Integer.class || t == Long.class;
    }

    /** Every command line that names a command, subcommands of commands included (and `help` itself). */
    static Stream<List<String>> commandPaths() {
        return paths(List.of(), JrxeMain.commandLine());
    }

    private static Stream<List<String>> paths(List<String> above, CommandLine command) {
        return command.getSubcommands().entrySet().stream().flatMap(sub -> {
            List<String> path = Stream.concat(above.stream(), Stream.of(sub.getKey())).toList();
            return Stream.concat(Stream.of(path), paths(path, sub.getValue()));
        });
    }

    @ParameterizedTest
    @MethodSource("commandPaths")
    void helpPrintsTheUsageAndExitsZero(List<String> command) {
        InProcess run = InProcess.run(Stream.concat(command.stream(), Stream.of("--help")).toArray(String[]::new));
        assertThat(run.status()).as("%s", run).isZero();
        assertThat(run.lines()).as("%s", run).anyMatch(line -> line.startsWith("Usage: jrxe " + String.join(" ", command) + " "));
        assertThat(run.err()).as("%s", run).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("commands")
    void anUnknownOptionIsOneLineNamingIt(String command) {
        BadOptionAnswer.check(InProcess.run(command, "--no-such-option"), command, "--no-such-option");
    }

    @ParameterizedTest
    @MethodSource("numericOptions")
    void aValueThatIsNotANumberIsOneLineNamingTheOption(String command, String option) {
        BadOptionAnswer.check(InProcess.run(command, option, "many"), command, option, "many");
    }

    @ParameterizedTest
    @MethodSource("commandsWithATcpPort")
    void portZeroIsRefused(String command) {
        BadOptionAnswer.check(InProcess.run(command, "-p", "0"), command, "-p", "1..65535");
    }

    @Test
    void everyCommandIsCoveredAndSomeHaveAPort() {
        assertThat(commands()).contains("pingpong", "write-bw", "view", "soak", "rc-ops");
        assertThat(commandPaths()).contains(List.of("decode"), List.of("help")).hasSizeGreaterThan(commands().size());
        assertThat(numericOptions().count()).isGreaterThan(commands().size() / 2);
        assertThat(commandsWithATcpPort()).contains("pingpong", "ud-pingpong", "write-bw", "rc-ops", "rping", "ucmatose");
    }
}
