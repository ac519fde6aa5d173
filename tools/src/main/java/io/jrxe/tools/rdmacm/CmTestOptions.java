package io.jrxe.tools.rdmacm;

import io.jrxe.tools.BadOption;
import io.jrxe.tools.common.CmNicOptions;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.net.InetAddress;

/**
 * The options ucmatose and udaddy share (rdma-core's cmatose.c and udaddy.c): -s names the server and makes the
 * program its client, -b the address to bind, -c the number of connections, -C and -S the messages each
 * connection carries each way. Plus jrxe's: where the NIC goes, and how long a transfer may stall.
 */
public final class CmTestOptions {
    @Option(names = "-s", paramLabel = "SERVER", description = "the server's address: be the client (default: be the server)")
    String server;

    @Option(names = "-b", paramLabel = "ADDRESS", description = "the address to bind: the server listens there (default: "
            + "any), the client sends from there")
    String bind;

    @Option(names = "-f", paramLabel = "FORMAT", description = "the address format: name, ip or ipv6 (gid is "
            + "InfiniBand's AF_IB: refused)")
    String format;

    @Option(names = "-c", paramLabel = "CONNECTIONS", defaultValue = "1", description = "connections (default: ${DEFAULT-VALUE})")
    int connections;

    @Option(names = "-C", paramLabel = "COUNT", defaultValue = "10", description = "messages each way on each connection "
            + "(default: ${DEFAULT-VALUE})")
    int messageCount;

    @Option(names = "-S", paramLabel = "SIZE", defaultValue = "100", description = "bytes of each message (default: ${DEFAULT-VALUE})")
    int messageSize;

    @Option(names = "-t", paramLabel = "TOS", description = "the type of service: asked of the connection manager, which has "
            + "no rdma_set_option in jrxe, so the program says that it failed and goes on, as the real one does then")
    String typeOfService;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "60",
            description = "how long a transfer may go without a completion before the program gives up (the real "
                    + "one waits for ever) (default: ${DEFAULT-VALUE})")
    int timeoutSeconds;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    boolean help;

    @Mixin
    CmNicOptions nic;

    /** Checks the values; {@code err} gets the real program's warning for an address format it does not know. */
    void validate(PrintWriter err) {
        if (connections < 1) {
            throw new BadOption("-c " + connections + ": at least 1 connection");
        }
        if (messageCount < 0) {
            throw new BadOption("-C " + messageCount + ": a count of messages, 0 or more");
        }
        if (messageSize < 0) {
            throw new BadOption("-S " + messageSize + ": a size in bytes, 0 or more");
        }
        if (timeoutSeconds < 1 || timeoutSeconds > 86_400) {
            throw new BadOption("--timeout " + timeoutSeconds + ": 1 to 86400 seconds");
        }
        if (format != null) {
            String f = format.toLowerCase(java.util.Locale.ROOT);
            if (f.startsWith("gid")) {
                throw new BadOption("-f " + format + ": GID addresses (AF_IB) are InfiniBand's; a RoCE NIC is reached by IP address");
            }
            if (!f.startsWith("ip") && !f.startsWith("name")) {
                err.println("Warning: unknown address format");
                err.flush();
            }
        }
        nic.nativeProvider();
    }

    /**
     * -P: a name that starts with {@code accepted} is fine, one that starts with {@code refused} is InfiniBand's
     * (refused, {@code why}), any other gets the real program's warning.
     */
    static void checkPortSpace(String value, String accepted, String refused, String why, PrintWriter err) {
        if (value == null) {
            return;
        }
        String ps = value.toLowerCase(java.util.Locale.ROOT);
        if (ps.startsWith(refused)) {
            throw new BadOption("-P " + value + ": " + why);
        }
        if (!ps.startsWith(accepted)) {
            err.println("Warning: unknown port space format");
            err.flush();
        }
    }

    /** A test on the channel of a NIC made for it. */
    interface Test {
        CmTestRun<?> on(io.jrxe.verbs.cm.CmEventChannel channel);
    }

    /** Runs the test on a NIC made for it; the exit status is its return status modulo 256. */
    int run(PrintWriter err, Test test) throws InterruptedException {
        try (io.jrxe.tools.common.CmNic cm = io.jrxe.tools.common.CmNic.open(nic, nicAddress(), err);
             io.jrxe.verbs.cm.CmEventChannel channel = cm.cm().createEventChannel()) {
            int status = test.on(channel).run();
            cm.report(err);
            return status & 0xFF;
        } catch (io.jrxe.verbs.VerbsException e) {
            throw new io.jrxe.tools.UserError(e.getMessage(), e);
        }
    }

    boolean isClient() {
        return server != null;
    }

    /** The server's address (the client's -s). */
    InetAddress serverAddress() {
        return CmAddresses.parse(server, "-s");
    }

    /** -b, or null. */
    InetAddress bindAddress() {
        return bind == null ? null : CmAddresses.parse(bind, "-b");
    }

    /** Where the jrxe NIC goes: --addr, else -b, else for a server the loopback of the wildcard's family, for a client the route's source. */
    InetAddress nicAddress() {
        if (nic.address() != null) {
            return nic.address();
        }
        InetAddress b = bindAddress();
        if (b != null && !b.isAnyLocalAddress()) {
            return b;
        }
        return isClient() ? CmAddresses.clientNic(serverAddress(), "-b") : CmAddresses.serverNic(b == null
                ? CmAddresses.wildcard(CmAddresses.IPV4_LOOPBACK) : b);
    }

    /** The address a server binds: -b, or the IPv4 wildcard. */
    InetAddress serverBind() {
        InetAddress b = bindAddress();
        return b != null ? b : CmAddresses.wildcard(CmAddresses.IPV4_LOOPBACK);
    }

    long timeoutNanos() {
        return timeoutSeconds * 1_000_000_000L;
    }
}
