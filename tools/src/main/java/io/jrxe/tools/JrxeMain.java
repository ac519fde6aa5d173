package io.jrxe.tools;

import io.jrxe.tools.decode.DecodeCommand;
import io.jrxe.tools.demo.DemoCommand;
import io.jrxe.tools.devinfo.DevinfoCommand;
import io.jrxe.tools.pingpong.RcPingpongCommand;
import io.jrxe.tools.pingpong.UdPingpongCommand;
import io.jrxe.tools.perftest.PerftestCommands;
import io.jrxe.tools.soak.SoakCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;

/**
 * The `jrxe` command line: one entry point, a subcommand per tool. A command line that names a subcommand builds
 * picocli's model of that one only: the model of all of them costs a second or two of a JVM's start here and half a
 * minute under an emulated CPU (a lab guest), while only help and a misspelt command need them all.
 */
@Command(name = "jrxe",
        mixinStandardHelpOptions = true,
        versionProvider = JrxeVersion.class,
        description = "jrxe: a software RDMA NIC (RoCEv2) in Java, and the tools around it.")
public final class JrxeMain implements Runnable {
    /** Every subcommand, in the order `jrxe --help` lists them (`help` last). */
    private static final List<Class<?>> SUBCOMMANDS = List.of(DemoCommand.class, DecodeCommand.class,
            DevinfoCommand.class, RcPingpongCommand.class, io.jrxe.tools.pingpong.UcPingpongCommand.class,
            io.jrxe.tools.pingpong.SrqPingpongCommand.class, UdPingpongCommand.class, io.jrxe.tools.mcast.McastCommand.class,
            PerftestCommands.WriteBw.class, PerftestCommands.WriteLat.class, PerftestCommands.ReadBw.class,
            PerftestCommands.ReadLat.class, PerftestCommands.SendBw.class, PerftestCommands.SendLat.class,
            PerftestCommands.AtomicBw.class, PerftestCommands.AtomicLat.class, SoakCommand.class,
            io.jrxe.tools.udpsoak.UdpSoakCommand.class, io.jrxe.tools.churn.QpChurnCommand.class,
            io.jrxe.tools.rdmacm.CmChurnCommand.class, io.jrxe.tools.regmr.RegMrCostCommand.class,
            io.jrxe.tools.baseline.UdpBaselineCommand.class, io.jrxe.tools.compare.CompareCommand.class,
            io.jrxe.tools.rcops.RcOpsCommand.class, io.jrxe.tools.conformance.ConformanceCommand.class,
            io.jrxe.tools.view.ViewCommand.class, io.jrxe.tools.analyze.AnalyzeCommand.class,
            io.jrxe.tools.sizing.MttSizeCommand.class, io.jrxe.tools.sizing.QueueSizeCommand.class,
            io.jrxe.tools.stat.StatCommand.class, io.jrxe.tools.trace.TraceCommand.class,
            io.jrxe.tools.mistakes.MistakesCommand.class, io.jrxe.tools.states.StatesCommand.class,
            io.jrxe.tools.jit.JitTrainingCommand.class, io.jrxe.tools.learn.LearnCommand.class,
            io.jrxe.tools.fabric.FabricCommand.class, io.jrxe.tools.perfquery.PerfqueryCommand.class,
            io.jrxe.tools.rdmacm.RpingCommand.class, io.jrxe.tools.rdmacm.UcmatoseCommand.class,
            io.jrxe.tools.rdmacm.UdaddyCommand.class, CommandLine.HelpCommand.class);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        // Netty's leak detector samples buffer allocations and records stack traces: a debugging aid that
        // costs the data path time on every sampled packet. The command line turns it off unless asked for.
        if (System.getProperty("io.netty.leakDetection.level") == null) {
            io.netty.util.ResourceLeakDetector.setLevel(io.netty.util.ResourceLeakDetector.Level.DISABLED);
        }
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs a command line with the given streams and returns its exit status (for tests and for main). */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cli = commandLineFor(args);
        cli.setOut(out);
        cli.setErr(err);
        cli.setParameterExceptionHandler(new BadOptionHandler());
        cli.setExecutionExceptionHandler(new OneLineErrors());
        return cli.execute(args);
    }

    /** `jrxe` with every subcommand: what its help, `jrxe help` and a misspelt command show. */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new JrxeMain());
        SUBCOMMANDS.forEach(cli::addSubcommand);
        return cli;
    }

    /** `jrxe` for these arguments: with only the subcommand they name when they start with one (not `help`). */
    static CommandLine commandLineFor(String[] args) {
        return named(args).map(c -> new CommandLine(new JrxeMain()).addSubcommand(c)).orElseGet(JrxeMain::commandLine);
    }

    private static Optional<Class<?>> named(String[] args) {
        if (args.length == 0) {
            return Optional.empty();
        }
        return SUBCOMMANDS.stream().filter(c -> c != CommandLine.HelpCommand.class)
                .filter(c -> {
                    Command command = c.getAnnotation(Command.class);
                    return command.name().equals(args[0]) || List.of(command.aliases()).contains(args[0]);
                }).findFirst();
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
