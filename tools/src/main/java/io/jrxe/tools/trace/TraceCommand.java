package io.jrxe.tools.trace;

import io.jrxe.tools.common.SimulatedCaptureFile;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** `jrxe trace`: one work request's whole trip between two jrxe NICs, every step with its real values. */
@Command(name = "trace", mixinStandardHelpOptions = true,
        description = {
            "One work request between two jrxe NICs in this process (jrxe0 to jrxe1, on a simulated network in virtual "
                + "time), told as its whole trip with the real values, in the order it happens: the WR (addr, lkey, "
                + "rkey, remote addr), post_send, the doorbell (QPN, SQ index), the WQE fetch, for each page touched the "
                + "lkey -> MPT entry -> MTT[i] -> page address + offset and the DMA, each packet built (its headers), on "
                + "the remote side the rkey -> MPT -> MTT[j] -> the bytes written, the ACK, the completion, the CQE "
                + "(CQ index) and the poll that finds it.",
            "Each line names the step of the course's six it belongs to (1 WR, 2 doorbell, 3 WQE fetch, 4 lkey/MTT/DMA, "
                + "5 packet, 6 ACK/CQE/poll; - for what happens on the way). jrxe's MTT holds each page's host "
                + "address, where a hardware NIC's holds a physical one."},
        exitCodeListHeading = "Exit status:%n",
        exitCodeList = {"0:the work request completed and the bytes arrived", "1:bad options",
            "2:the work request did not complete as it should"})
public final class TraceCommand implements Callable<Integer> {
    private static final int DEFAULT_SIZE = 64;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--op", paramLabel = "OP", defaultValue = "write",
            description = "write (RDMA_WRITE), read (RDMA_READ), send (SEND into a posted receive) or atomic "
                    + "(ATOMIC_FETCH_AND_ADD of 8 bytes) (default: ${DEFAULT-VALUE})")
    String op;

    @Option(names = {"-s", "--size"}, paramLabel = "BYTES",
            description = "the message size, 1.." + Trip.MAX_SIZE + " (default: " + DEFAULT_SIZE + "; above 4096 a message "
                    + "touches several pages and the path MTU of 4096 cuts it into several packets)")
    Integer size;

    @Option(names = "--json", description = "print each event as one JSON object per line instead")
    boolean json;

    @Option(names = "--drop", paramLabel = "N",
            description = "the network loses the trip's Nth packet (counting from 1 every packet either NIC sends: 1 is the "
                    + "first request packet, the last is the ACK or response), so that the trip shows the timeout and the "
                    + "resend that recover it")
    Integer drop;

    @Option(names = "--capture", paramLabel = "FILE",
            description = "also write the trip's packets to FILE (pcapng), each as sent and as received, for jrxe view, "
                    + "Wireshark or tshark")
    Path capture;

    @Option(names = "--odp", description = "register both NICs' buffers with on-demand paging: the trip then shows each "
            + "page the NICs fault in at its first use, just before its DMA (docs/odp.md)")
    boolean odp;

    @Override
    public Integer call() throws Exception {
        TripOp tripOp = TripOp.of(op);
        if (tripOp == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--op " + op + ": write, read, send or atomic");
        }
        if (size != null && (size < 1 || size > Trip.MAX_SIZE)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "-s/--size " + size + ": 1.." + Trip.MAX_SIZE + " bytes");
        }
        if (tripOp == TripOp.ATOMIC && size != null && size != Long.BYTES) {
            throw new CommandLine.ParameterException(spec.commandLine(), "-s/--size " + size + ": an atomic moves 8 bytes");
        }
        if (drop != null && drop < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--drop " + drop + ": packets count from 1");
        }
        Trip.Result result;
        String captureNote = null;
        try (SimulatedCaptureFile file = capture == null ? null : new SimulatedCaptureFile(capture)) {
            result = Trip.run(tripOp, tripOp == TripOp.ATOMIC ? Long.BYTES : size == null ? DEFAULT_SIZE : size,
                    drop == null ? 0 : drop, file, odp);
            captureNote = file == null ? null : file.howToOpen();
        }
        PrintWriter out = spec.commandLine().getOut();
        if (drop != null && drop > result.carried()) {
            spec.commandLine().getErr().printf("jrxe trace: --drop %d: this trip carried only %d packets, so none was lost "
                    + "(try 1 to %d)%n", drop, result.carried(), result.carried());
            return 1;
        }
        if (json) {
            List<TripEvent> events = result.events();
            for (int i = 0; i < events.size(); i++) {
                out.println(TripJson.of(i + 1, events.get(i)));
            }
        } else {
            print(out, result, odp);
            if (captureNote != null) {
                out.printf("%n%s%n", captureNote);
            }
        }
        out.flush();
        if (!result.ok()) {
            spec.commandLine().getErr().println("jrxe trace: " + result.outcome());
            return 2;
        }
        return 0;
    }

    private static void print(PrintWriter out, Trip.Result r, boolean onDemand) {
        out.printf("jrxe trace: one %s of %d bytes from jrxe0 to jrxe1, every step with its real values%s%n", r.op().opcode,
                r.op() == TripOp.ATOMIC ? Long.BYTES : r.size(), onDemand ? " (both MRs ON_DEMAND)" : "");
        out.printf("  two jrxe NICs in this process on a simulated network (virtual time, 5 us a hop), path MTU %d%n", r.mtu());
        out.printf("  course steps: 1 WR prepared, 2 doorbell, 3 WQE fetch, 4 lkey -> MTT, DMA, 5 packet built, "
                + "6 ACK, CQE, poll; - on the way%n%n");
        out.printf("%4s %9s  %-5s  %-20s %s%n", "#", "time(us)", "NIC", "step", "what");
        List<TripEvent> events = r.events();
        for (int i = 0; i < events.size(); i++) {
            TripEvent e = events.get(i);
            String step = (e.stage().courseStep == 0 ? "-" : Integer.toString(e.stage().courseStep)) + " " + e.stage().label;
            out.printf("%4d %9.3f  %-5s  %-20s %s%n", i + 1, e.timeNanos() / 1000.0, e.nic(), step, e.text());
        }
        out.printf("%n%s%n", (r.ok() ? "ok: " : "UNEXPECTED: ") + r.outcome());
    }
}
