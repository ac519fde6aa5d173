package io.jrxe.tools.churn;

import io.jrxe.tools.BadOption;
import io.jrxe.tools.UserError;
import io.jrxe.tools.common.IpAddressOption;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpConnect;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpPeer;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.verbs.emulated.Progress;
import io.jrxe.verbs.facade.Verbs;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/** `jrxe qp-churn`: QPs created, connected, used once and destroyed, over and over, with the process watched. */
@Command(name = "qp-churn", mixinStandardHelpOptions = true,
        description = {"Creates an RC QP on each of two jrxe NICs (on --addr-a and --addr-b, real UDP), connects them "
                + "(RESET, INIT, RTR, RTS), sends one 64-byte RDMA WRITE and checks its byte, destroys both QPs, and "
                + "does it again, --cycles times. At every tenth of the cycles it prints the heap after a full "
                + "collection, the live threads, the open files and the slowest cycle so far.",
            "The process is flat when, after the first tenth (the warm-up), the heap grew by no more than 16 MiB or a "
                + "quarter, the threads by no more than 2 and the open files by no more than 8."},
        exitCodeListHeading = "Exit status:%n",
        exitCodeList = {"0:every cycle's WRITE completed within --timeout, and the process stayed flat",
            "1:bad options, a cycle that failed or took longer than --timeout, or a process that grew",
            "2:the NICs could not be made"})
public final class QpChurnCommand implements Callable<Integer> {
    private static final int LENGTH = 64;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--cycles", paramLabel = "N", defaultValue = "10000",
            description = "create/connect/WRITE/destroy cycles, 1 to 100,000,000 (default: ${DEFAULT-VALUE})")
    long cycles;

    @Option(names = "--addr-a", paramLabel = "IP", defaultValue = "127.0.0.1", description = "the first NIC's address (default: ${DEFAULT-VALUE})")
    String addressA;

    @Option(names = "--addr-b", paramLabel = "IP", defaultValue = "127.0.0.2", description = "the second NIC's address (default: ${DEFAULT-VALUE})")
    String addressB;

    @Option(names = "--progress", paramLabel = "MODE", defaultValue = "thread",
            description = "how the NICs run: thread (a NIC thread each) or invoker (on this program's thread when it "
                    + "polls) (default: ${DEFAULT-VALUE})")
    String progress;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "5",
            description = "the longest a cycle may take, 1 to 3600 (default: ${DEFAULT-VALUE})")
    int timeoutSeconds;

    @Override
    public Integer call() throws Exception {
        if (cycles < 1 || cycles > 100_000_000) {
            throw new BadOption("--cycles " + cycles + ": from 1 to 100,000,000");
        }
        if (timeoutSeconds < 1 || timeoutSeconds > 3600) {
            throw new BadOption("--timeout " + timeoutSeconds + ": from 1 to 3600 seconds");
        }
        Progress mode = java.util.Arrays.stream(Progress.values()).filter(p -> p.optionName().equals(progress)).findFirst()
                .orElseThrow(() -> new BadOption("--progress " + progress + ": thread or invoker"));
        InetAddress a = IpAddressOption.parse(addressA, "--addr-a " + addressA + ": not an IP address");
        InetAddress b = IpAddressOption.parse(addressB, "--addr-b " + addressB + ": not an IP address");
        if (a.equals(b)) {
            throw new BadOption("--addr-a and --addr-b: the two NICs need two addresses, not both " + addressA);
        }
        PrintWriter out = spec.commandLine().getOut();
        EmulatedDevice da = open("churn-a", a, mode);
        EmulatedDevice db;
        try {
            db = open("churn-b", b, mode);
        } catch (UserError e) {
            Verbs.emulated().remove(da);
            throw e;
        }
        try (Arena arena = Arena.ofShared()) {
            return run(da, db, arena, out);
        } finally {
            Verbs.emulated().remove(da);
            Verbs.emulated().remove(db);
        }
    }

    private static EmulatedDevice open(String name, InetAddress address, Progress mode) {
        try {
            return Verbs.emulated().createUdp(name, address, mode);
        } catch (VerbsException e) {
            throw new UserError("cannot open device " + name + " on " + address.getHostAddress() + ": " + e.getMessage(), e);
        }
    }

    private int run(EmulatedDevice da, EmulatedDevice db, Arena arena, PrintWriter out) throws VerbsException {
        Context ca = da.open();
        Context cb = db.open();
        Pd pa = ca.allocPd();
        Pd pb = cb.allocPd();
        Cq cqa = ca.createCq(4, null);
        Cq cqb = cb.createCq(4, null);
        MemorySegment source = arena.allocate(LENGTH, 64);
        MemorySegment target = arena.allocate(LENGTH, 64);
        Mr mra = pa.regMr(source, Access.LOCAL_WRITE);
        Mr mrb = pb.regMr(target, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        QpCapabilities caps = new QpCapabilities(4, 4, 1, 1, 0);
        SendWr wr = new SendWr(1);
        wr.opcode = WrOpcode.RDMA_WRITE;
        wr.flags = SendWr.SIGNALED;
        wr.sgl.add(source.address(), LENGTH, mra.lkey());
        wr.remoteAddr = target.address();
        wr.rkey = mrb.rkey();
        WorkCompletion[] wc = {new WorkCompletion()};
        long timeoutNanos = TimeUnit.SECONDS.toNanos(timeoutSeconds);
        ChurnWatch watch = new ChurnWatch("qp churn", cycles, out);
        for (long i = 1; i <= cycles; i++) {
            long start = System.nanoTime();
            byte mark = (byte) i;
            source.fill(mark);
            Qp qa = pa.createQp(new QpInitAttributes(QpType.RC, cqa, cqa, null, caps, false));
            Qp qb = pb.createQp(new QpInitAttributes(QpType.RC, cqb, cqb, null, caps, false));
            QpConnect.to(new QpPeer(qb.qpNum(), 0, cb.queryGid(1, 1).gid())).accessFlags(Access.REMOTE_WRITE).apply(qa);
            QpConnect.to(new QpPeer(qa.qpNum(), 0, ca.queryGid(1, 1).gid())).accessFlags(Access.REMOTE_WRITE).apply(qb);
            wr.wrId = i;
            qa.postSend(wr);
            String failure = awaitWrite(cqa, wc, i, start + timeoutNanos);
            if (failure == null && target.get(ValueLayout.JAVA_BYTE, LENGTH - 1) != mark) {
                failure = "the WRITE completed but the target's last byte is not the cycle's";
            }
            qa.close();
            qb.close();
            if (failure != null) {
                out.printf(Locale.ROOT, "qp churn: cycle %d of %d: %s%n", i, cycles, failure);
                out.flush();
                return 1;
            }
            watch.cycleDone(i, System.nanoTime() - start);
        }
        return watch.finish();
    }

    /** Null once the WRITE of cycle {@code i} completed successfully, else what went wrong. */
    private static String awaitWrite(Cq cq, WorkCompletion[] wc, long i, long deadline) {
        while (cq.poll(wc) == 0) {
            if (System.nanoTime() > deadline) {
                return "the WRITE did not complete within the timeout";
            }
            Thread.onSpinWait();
        }
        if (wc[0].status() != WcStatus.SUCCESS || wc[0].wrId() != i) {
            return "the WRITE completed with " + wc[0];
        }
        return null;
    }
}
