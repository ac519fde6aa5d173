package io.jrxe.tools.rdmacm;

import io.jrxe.tools.BadOption;
import io.jrxe.tools.UserError;
import io.jrxe.tools.churn.ChurnWatch;
import io.jrxe.tools.common.CmNic;
import io.jrxe.tools.common.CmNicOptions;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.cm.CmEvent;
import io.jrxe.verbs.cm.CmEventChannel;
import io.jrxe.verbs.cm.CmEventType;
import io.jrxe.verbs.cm.CmId;
import io.jrxe.verbs.cm.ConnectionParameters;
import io.jrxe.verbs.cm.PortSpace;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/** `jrxe cm-churn`: RC connections made and ended through the connection manager, over and over, between two processes. */
@Command(name = "cm-churn", mixinStandardHelpOptions = true,
        description = {"Connects and disconnects an RC QP through the RDMA connection manager --cycles times, one "
                + "connection at a time: the client resolves the server's address and route, creates its QP, connects "
                + "(REQ, REP, RTU), disconnects (DREQ, DREP) and destroys the QP and the identifier; the server accepts "
                + "each request on a new QP and destroys it when the connection ends. Both sides print, at every tenth "
                + "of the cycles, the heap after a full collection, the live threads, the open files and the slowest "
                + "cycle since the last line.",
            "Without -s it is the server, on -b (default 127.0.0.1); with -s SERVER the client. Give both the same "
                + "--cycles. The jrxe NIC goes where ucmatose's does (--addr overrides it); --provider native runs "
                + "on the kernel's librdmacm."},
        exitCodeListHeading = "Exit status:%n",
        exitCodeList = {"0:every connection was established and ended within --timeout, and the process stayed flat",
            "1:bad options, a connection that failed or took longer than --timeout, or a process that grew",
            "2:the NIC could not be made"})
public final class CmChurnCommand implements Callable<Integer> {
    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    CmNicOptions nic;

    @Option(names = "-s", paramLabel = "SERVER", description = "the server's address: be the client (default: be the server)")
    String server;

    @Option(names = "-b", paramLabel = "ADDRESS", description = "the address to bind: the server listens there "
            + "(default: 127.0.0.1); the client sends from it")
    String bind;

    @Option(names = "-p", paramLabel = "PORT", defaultValue = "7472", description = "the port (default: ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--cycles", paramLabel = "N", defaultValue = "1000",
            description = "connections, 1 to 10,000,000 (default: ${DEFAULT-VALUE})")
    long cycles;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "5",
            description = "the longest one connection may take from its start to its end, 1 to 3600; the server waits "
                    + "60 s for the first (default: ${DEFAULT-VALUE})")
    int timeoutSeconds;

    private PrintWriter out;
    private Pd pd;
    private Cq cq;

    @Override
    public Integer call() throws Exception {
        if (cycles < 1 || cycles > 10_000_000) {
            throw new BadOption("--cycles " + cycles + ": from 1 to 10,000,000");
        }
        if (timeoutSeconds < 1 || timeoutSeconds > 3600) {
            throw new BadOption("--timeout " + timeoutSeconds + ": from 1 to 3600 seconds");
        }
        if (port < 1 || port > 65535) {
            throw new BadOption("-p " + port + ": a port is 1..65535");
        }
        out = spec.commandLine().getOut();
        InetAddress bindAddress = bind == null ? null : CmAddresses.parse(bind, "-b");
        InetAddress serverAddress = server == null ? null : CmAddresses.parse(server, "-s");
        InetAddress nicAddress = nic.address() != null ? nic.address()
                : bindAddress != null && !bindAddress.isAnyLocalAddress() ? bindAddress
                : serverAddress != null ? CmAddresses.clientNic(serverAddress, "-b")
                : CmAddresses.serverNic(CmAddresses.wildcard(CmAddresses.IPV4_LOOPBACK));
        nic.nativeProvider();
        try (CmNic cm = CmNic.open(nic, nicAddress, spec.commandLine().getErr());
             CmEventChannel channel = cm.cm().createEventChannel()) {
            int status = serverAddress == null
                    ? serve(channel, new InetSocketAddress(bindAddress == null ? CmAddresses.IPV4_LOOPBACK : bindAddress, port))
                    : connect(channel, bindAddress == null ? null : new InetSocketAddress(bindAddress, 0),
                            new InetSocketAddress(serverAddress, port));
            cm.report(spec.commandLine().getErr());
            return status;
        } catch (VerbsException e) {
            throw new UserError(e.getMessage(), e);
        }
    }

    private QpInitAttributes qpAttributes(CmId id) throws VerbsException {
        if (pd == null) {
            pd = id.context().allocPd();
            cq = id.context().createCq(4, null);
        }
        return new QpInitAttributes(QpType.RC, cq, cq, null, new QpCapabilities(4, 4, 1, 1, 0), true);
    }

    private int connect(CmEventChannel channel, InetSocketAddress source, InetSocketAddress destination)
            throws VerbsException, InterruptedException {
        ChurnWatch watch = new ChurnWatch("cm churn client", cycles, out);
        long timeoutNanos = TimeUnit.SECONDS.toNanos(timeoutSeconds);
        for (long i = 1; i <= cycles; i++) {
            long start = System.nanoTime();
            long deadline = start + timeoutNanos;
            CmId id = channel.createId(PortSpace.TCP, null);
            try {
                id.resolveAddr(source, destination, 2000);
                String failure = await(channel, CmEventType.ADDR_RESOLVED, deadline);
                if (failure == null) {
                    id.resolveRoute(2000);
                    failure = await(channel, CmEventType.ROUTE_RESOLVED, deadline);
                }
                if (failure == null) {
                    QpInitAttributes attributes = qpAttributes(id);
                    id.createQp(pd, attributes);
                    id.connect(ConnectionParameters.defaults());
                    failure = await(channel, CmEventType.ESTABLISHED, deadline);
                }
                if (failure == null) {
                    id.disconnect();
                    failure = await(channel, CmEventType.DISCONNECTED, deadline);
                }
                if (failure != null) {
                    return fail("cm churn client", i, failure);
                }
                id.destroyQp();
            } finally {
                Quietly.close(id);
            }
            watch.cycleDone(i, System.nanoTime() - start);
        }
        return watch.finish();
    }

    /**
     * Null when the next event is {@code expected}, else what came instead (or that nothing came in time). An earlier
     * connection's TIMEWAIT_EXIT (its time-wait ended after it was destroyed) is passed over.
     */
    private static String await(CmEventChannel channel, CmEventType expected, long deadline)
            throws VerbsException, InterruptedException {
        while (true) {
            CmEvent e = channel.getEvent(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (e == null) {
                return "no " + expected.librdmacmName() + " within the timeout";
            }
            if (e.type() != CmEventType.TIMEWAIT_EXIT) {
                return e.type() == expected ? null : "waited for " + expected.librdmacmName() + ", got " + e;
            }
        }
    }

    private int serve(CmEventChannel channel, InetSocketAddress address) throws VerbsException, InterruptedException {
        CmId listener = channel.createId(PortSpace.TCP, null);
        try {
            listener.bindAddr(address);
            listener.listen(0);
            out.printf("cm churn server: listening on %s port %d%n", CmAddresses.text(address.getAddress()), port);
            out.flush();
            ChurnWatch watch = new ChurnWatch("cm churn server", cycles, out);
            Map<CmId, Long> started = new HashMap<>();
            long ended = 0;
            long firstWait = TimeUnit.SECONDS.toNanos(60);
            while (ended < cycles) {
                long wait = ended == 0 && started.isEmpty() ? firstWait : TimeUnit.SECONDS.toNanos(timeoutSeconds);
                CmEvent e = channel.getEvent(wait, TimeUnit.NANOSECONDS);
                if (e == null) {
                    return fail("cm churn server", ended + 1, "no event within " + (ended == 0 && started.isEmpty()
                            ? "60 s: no client came" : "the timeout") + " (" + started.size() + " connection(s) open)");
                }
                switch (e.type()) {
                    case CONNECT_REQUEST -> {
                        CmId id = e.id();
                        started.put(id, System.nanoTime());
                        QpInitAttributes attributes = qpAttributes(id);
                        id.createQp(pd, attributes);
                        id.accept(LibrdmacmAccept.of(e.connection(), id));
                    }
                    case ESTABLISHED, TIMEWAIT_EXIT -> {
                        // the connection is up and the client ends it; or an ended one's time-wait is over
                    }
                    case DISCONNECTED -> {
                        CmId id = e.id();
                        Long start = started.remove(id);
                        try {
                            id.disconnect();
                        } catch (VerbsException x) {
                            // the client's DREQ ended it already
                        }
                        id.destroyQp();
                        Quietly.close(id);
                        ended++;
                        watch.cycleDone(ended, start == null ? 0 : System.nanoTime() - start);
                    }
                    default -> {
                        return fail("cm churn server", ended + 1, "unexpected " + e);
                    }
                }
            }
            return watch.finish();
        } finally {
            Quietly.close(listener);
        }
    }

    private int fail(String who, long cycle, String failure) {
        out.printf(Locale.ROOT, "%s: connection %d of %d: %s%n", who, cycle, cycles, failure);
        out.flush();
        return 1;
    }
}
