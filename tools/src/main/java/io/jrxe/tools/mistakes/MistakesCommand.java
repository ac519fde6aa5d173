package io.jrxe.tools.mistakes;

import io.jrxe.tools.common.SimulatedCaptureFile;
import io.jrxe.verbs.VerbsException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** `jrxe mistakes`: the classic RDMA mistakes acted out between two jrxe NICs, one numbered section each. */
@Command(name = "mistakes", mixinStandardHelpOptions = true,
        description = {
            "The classic RDMA mistakes, each really made through the verbs API between two jrxe NICs in this process "
                + "(on a simulated network in virtual time, so RNR waits and retries take no real time), one numbered "
                + "section each: what the program did, the packets (or why there were none), what came back (a "
                + "completion with its status and vendor_err, a refused verb with its errno, an async event), the rule "
                + "that fired (IBTA, or rxe's check) and the fix.",
            "The mistakes: memory not registered, wrong rkey, buffer not page-aligned (legal: what it costs), wrong "
                + "num_sge, CQ not polled, no receive posted (RNR), registration larger than the translation table, "
                + "memory freed while registered, a missing access flag, a PD mismatch, a send posted before RTS. jrxe compare --scenario mistakes -d rxe0 runs those the kernel allows "
                + "on a kernel device too."},
        exitCodeListHeading = "Exit status:%n",
        exitCodeList = {"0:every mistake had the effect its section expects", "1:one did not, or bad options",
            "2:the NICs could not be made"})
public final class MistakesCommand implements Callable<Integer> {
    @FunctionalInterface
    private interface Mistake {
        Section act(SimulatedCaptureFile capture) throws VerbsException;
    }

    /** The mistakes in the course's order, by the names --only takes. */
    private static final Map<String, Mistake> MISTAKES = new LinkedHashMap<>();

    static {
        MISTAKES.put("unregistered", MemoryMistakes::unregistered);
        MISTAKES.put("wrong-rkey", QueueMistakes::wrongRkey);
        MISTAKES.put("unaligned", MemoryMistakes::unaligned);
        MISTAKES.put("num-sge", QueueMistakes::numSge);
        MISTAKES.put("cq-overflow", QueueMistakes::cqNotPolled);
        MISTAKES.put("rnr", QueueMistakes::noReceive);
        MISTAKES.put("mtt-too-small", MemoryMistakes::tooLarge);
        MISTAKES.put("freed", MemoryMistakes::freed);
        MISTAKES.put("missing-access", ProtectionMistakes::missingAccess);
        MISTAKES.put("pd-mismatch", ProtectionMistakes::pdMismatch);
        MISTAKES.put("before-rts", ProtectionMistakes::beforeRts);
    }

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--only", split = ",", paramLabel = "NAME",
            description = "act out only these (comma-separated): unregistered, wrong-rkey, unaligned, num-sge, cq-overflow, "
                    + "rnr, mtt-too-small, freed, missing-access, pd-mismatch, before-rts (default: all, in that order)")
    List<String> only = List.of();

    @Option(names = "--capture", paramLabel = "FILE",
            description = "also write every mistake's packets to FILE (pcapng), the mistakes one after another a second "
                    + "apart, each NIC of each mistake an interface of its own, for jrxe view, Wireshark or tshark")
    Path capture;

    @Override
    public Integer call() throws VerbsException {
        List<String> names = new ArrayList<>();
        for (String name : only) {
            if (!MISTAKES.containsKey(name)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--only " + name + ": one of "
                        + String.join(", ", MISTAKES.keySet()));
            }
        }
        MISTAKES.keySet().stream().filter(n -> only.isEmpty() || only.contains(n)).forEach(names::add);
        PrintWriter out = spec.commandLine().getOut();
        out.printf("jrxe mistakes: the classic RDMA mistakes, each really made between two jrxe NICs (jrxe0 -> jrxe1, "
                + "a simulated network in virtual time, path MTU 4096)%n%n");
        int unexpected = 0;
        int number = 0;
        try (SimulatedCaptureFile file = capture == null ? null : new SimulatedCaptureFile(capture)) {
            for (Map.Entry<String, Mistake> m : MISTAKES.entrySet()) {
                number++;
                if (!names.contains(m.getKey())) {
                    continue;
                }
                Section s = m.getValue().act(file);
                print(out, number, s);
                unexpected += s.unexpected == null ? 0 : 1;
            }
            out.println(unexpected == 0 ? "Every mistake had the effect its section expects."
                    : unexpected + " mistake(s) did not have the effect their section expects.");
            if (file != null) {
                out.printf("%n%s%n", file.howToOpen());
            }
        }
        out.flush();
        return unexpected == 0 ? 0 : 1;
    }

    private static void print(PrintWriter out, int number, Section s) {
        out.printf("%d. %s   [%s]%n", number, s.title, s.id);
        lines(out, "did", s.did);
        lines(out, "packets", s.packets);
        lines(out, "result", s.result);
        lines(out, "rule", List.of(s.rule));
        lines(out, "fix", List.of(s.fix));
        out.printf("  %-9s %s%n%n", s.unexpected == null ? "ok" : "UNEXPECTED", s.unexpected == null
                ? "as expected" : "expected " + s.unexpected);
        out.flush();
    }

    private static void lines(PrintWriter out, String label, List<String> lines) {
        for (int i = 0; i < lines.size(); i++) {
            out.printf("  %-9s %s%n", i == 0 ? label : "", lines.get(i));
        }
    }
}
