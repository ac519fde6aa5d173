package io.jrxe.tools;

import io.jrxe.tools.common.InProcess;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Which subcommands `jrxe` builds for a command line: the one it names, or all of them when help needs them. */
class JrxeMainTest {
    private static final List<String> ALL = List.copyOf(JrxeMain.commandLine().getSubcommands().keySet());

    @Test
    void aCommandLineThatNamesASubcommandBuildsThatOneOnly() {
        assertThat(JrxeMain.commandLineFor(new String[] {"devinfo", "--help"}).getSubcommands()).containsOnlyKeys("devinfo");
        assertThat(JrxeMain.commandLineFor(new String[] {"write-bw", "-s", "64"}).getSubcommands()).containsOnlyKeys("write-bw");
    }

    @Test
    void helpAndAnythingThatNamesNoSubcommandBuildThemAll() {
        assertThat(ALL).startsWith("demo", "decode", "devinfo").endsWith("help").hasSizeGreaterThan(30);
        for (String[] args : List.of(new String[0], new String[] {"--help"}, new String[] {"help", "devinfo"},
                new String[] {"devnifo"}, new String[] {"-V"})) {
            assertThat(JrxeMain.commandLineFor(args).getSubcommands().keySet()).as(String.join(" ", args))
                    .containsExactlyElementsOf(ALL);
        }
    }

    @Test
    void helpOfASubcommandAndTheListOfThemAllStillWork() {
        InProcess list = InProcess.run("--help");
        assertThat(list.status()).as("%s", list).isZero();
        assertThat(list.out()).contains("  devinfo ", "  write-bw ", "  udaddy ");
        InProcess help = InProcess.run("help", "devinfo");
        assertThat(help.status()).as("%s", help).isZero();
        assertThat(help.out()).startsWith("Usage: jrxe devinfo ");
        InProcess misspelt = InProcess.run("devnifo");
        assertThat(misspelt.status()).as("%s", misspelt).isNotZero();
        assertThat(misspelt.err()).as("%s", misspelt).contains("devnifo");
    }
}
