package io.jrxe.tools.udpsoak;

import io.jrxe.tools.BadOption;
import io.jrxe.tools.UserError;
import io.jrxe.tools.common.DeviceOptions;
import io.jrxe.tools.common.LocalDevice;
import io.jrxe.tools.common.OobSocket;
import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.wire.port.fault.FaultyPort;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;

/** `jrxe udp-soak`: the soak between two processes on real UDP, each NIC with its own --faults. */
@Command(name = "udp-soak", mixinStandardHelpOptions = true,
        description = {"A seeded random mix of RC operations (RDMA WRITE, RDMA READ, SEND, FETCH_AND_ADD, CMP_AND_SWP; "
                + "0 to 8 KiB; 8 outstanding per QP) between two processes over real UDP, both sides posting against each "
                + "other, each on its own device (give the faults with --faults: both directions of both NICs). "
                + "Without SERVERNAME it is the server and waits on TCP port -p; with it, the client. The two trade "
                + "QPs over that connection, run --ops operations each, then trade what each did.",
            "Every READ and atomic result is checked against a shadow of the peer's memory, every SEND's bytes, order "
                + "and count on arrival, every completion once, and at the end each side's memory against the peer's "
                + "shadow of it. stdout gets one line: 'ops=N ok=N failed=N mismatches=N lost_completions=N "
                + "duplicated_completions=N retransmits=N faults=N seed=S peer=good|bad'."},
        exitCodeListHeading = "Exit status:%n",
        exitCodeList = {"0:every operation of both sides completed once, successfully, with the right data",
            "1:bad options, or a failed, wrong, lost or duplicated operation on either side",
            "2:the soak could not be set up (no such device, no peer, ...)"})
public final class UdpSoakCommand implements Callable<Integer> {
    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    DeviceOptions device;

    @Parameters(arity = "0..1", paramLabel = "SERVERNAME",
            description = "connect to the server at SERVERNAME; without it, be the server")
    String servername;

    @Option(names = {"-p", "--port"}, paramLabel = "PORT", defaultValue = "18517",
            description = "listen on / connect to TCP port PORT (default: ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--ops", paramLabel = "N", defaultValue = "2000",
            description = "operations this side posts; 0: it only answers the peer's and takes its SENDs "
                    + "(default: ${DEFAULT-VALUE})")
    long ops;

    @Option(names = "--qps", paramLabel = "Q", defaultValue = "4",
            description = "RC QPs between the two sides, 1..256; give both the same (default: ${DEFAULT-VALUE})")
    int qps;

    @Option(names = "--both-ways",
            description = "both sides post on every QP, so each QP is requester and responder at once; without it "
                    + "the server posts on the even QPs and the client on the odd ones (give both sides the same)")
    boolean bothWays;

    @Option(names = "--seed", paramLabel = "S",
            description = "the seed of this side's mix of operations (default: random; the summary prints it)")
    Long seed;

    @Override
    public Integer call() throws VerbsException {
        if (ops < 0) {
            throw new BadOption("--ops " + ops + ": 0 (this side only answers and receives) or more");
        }
        if (qps < 1 || qps > 256) {
            throw new BadOption("--qps " + qps + ": from 1 to 256");
        }
        if (qps < 2 && !bothWays) {
            throw new BadOption("--qps " + qps + ": at least 2, one for each side's requests (or --both-ways)");
        }
        if (port < 1 || port > 65535) {
            throw new BadOption("-p/--port " + port + ": a TCP port is 1..65535");
        }
        long s = seed != null ? seed : ThreadLocalRandom.current().nextLong(1L << 32);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        int timeout = device.timeoutMillis();
        try (LocalDevice dev = device.open(err);
             UdpSoakSide side = new UdpSoakSide(dev.context(), qps, s, requesterOf(servername == null), err)) {
            int sgid = dev.defaultGidIndex();
            Mtu mtu = dev.port(1).activeMtu();
            UdpSoakDest mine = side.mine(dev.gid(sgid).gid());
            try (OobSocket oob = servername == null
                    ? OobSocket.accept(OobSocket.listen(port), device.acceptTimeoutMillis(), timeout)
                    : OobSocket.connect(servername, port, timeout)) {
                oob.write(mine.encode(), "this side's QPs");
                byte[] header = oob.readExactly(UdpSoakDest.HEADER, "the peer's QPs");
                byte[] lines = oob.readExactly(UdpSoakDest.qps(header) * UdpSoakDest.PER_QP, "the peer's QPs");
                side.connect(UdpSoakDest.decode(header, lines), sgid, mtu);
                oob.write("go\n".getBytes(StandardCharsets.US_ASCII), "the start");
                oob.readExactly(3, "the peer's start");
                run(side, timeout);
                byte[] peerSummary = finish(side, oob, timeout);
                side.checkAgainst(peerSummary);
                boolean good = side.failed == 0 && side.mismatches == 0 && side.lost == 0 && side.duplicated == 0;
                oob.write((good ? "good\n" : "bad!\n").getBytes(StandardCharsets.US_ASCII), "the verdict");
                boolean peerGood = new String(oob.readExactly(5, "the peer's verdict"), StandardCharsets.US_ASCII)
                        .startsWith("good");
                out.println(summary(side, dev, s, peerGood));
                out.flush();
                dev.report(err);
                return good && peerGood ? 0 : 1;
            }
        }
    }

    /** The QPs this side posts on: all of them with --both-ways, else the server the even ones, the client the odd. */
    private java.util.function.IntPredicate requesterOf(boolean server) {
        return bothWays ? q -> true : q -> (q & 1) == (server ? 0 : 1);
    }

    /** Posts this side's operations and takes their completions, the peer's SENDs' too, until all have completed. */
    private void run(UdpSoakSide side, int timeout) throws VerbsException {
        WorkCompletion[] wcs = wcs();
        long lastProgress = System.nanoTime();
        while (side.posted < ops || side.outstanding() > 0) {
            while (side.posted < ops && side.postOne()) {
                lastProgress = System.nanoTime();
            }
            if (side.poll(wcs) > 0) {
                lastProgress = System.nanoTime();
            } else if (System.nanoTime() - lastProgress > timeout * 1_000_000L) {
                side.giveUp();
                return;
            }
        }
    }

    /**
     * Tells the peer what this side did and learns what it did, taking the peer's last SENDs meanwhile: the peer's
     * summary is read on another thread while this one polls, so that its SENDs still find receives.
     */
    private byte[] finish(UdpSoakSide side, OobSocket oob, int timeout) throws VerbsException {
        oob.write(side.summary(), "what this side did");
        CompletableFuture<byte[]> theirs = CompletableFuture.supplyAsync(
                () -> oob.readExactlyUnbounded(side.summaryLength(), "what the peer did"));
        WorkCompletion[] wcs = wcs();
        long lastProgress = System.nanoTime();
        while (!(theirs.isDone() && side.receivedAll(theirs.join()))) {
            if (side.poll(wcs) > 0) {
                lastProgress = System.nanoTime();
            } else if (theirs.isDone() && System.nanoTime() - lastProgress > timeout * 1_000_000L) {
                break; // the SENDs missing are counted as lost by the check
            }
        }
        try {
            return theirs.join();
        } catch (java.util.concurrent.CompletionException e) {
            throw e.getCause() instanceof UserError u ? u : new UserError("the peer's summary: " + e.getMessage(), e);
        }
    }

    private static WorkCompletion[] wcs() {
        WorkCompletion[] wcs = new WorkCompletion[32];
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
        return wcs;
    }

    private String summary(UdpSoakSide side, LocalDevice dev, long s, boolean peerGood) throws VerbsException {
        Map<String, Long> counters = dev.context().counters();
        long faults = FaultyPort.faultsDone(counters);
        return String.format("ops=%d ok=%d failed=%d mismatches=%d lost_completions=%d duplicated_completions=%d "
                        + "retransmits=%d faults=%d seed=%d peer=%s", side.posted, side.ok, side.failed, side.mismatches,
                side.lost, side.duplicated, counters.getOrDefault("completer_retry_err", 0L), faults, s,
                peerGood ? "good" : "bad");
    }
}
