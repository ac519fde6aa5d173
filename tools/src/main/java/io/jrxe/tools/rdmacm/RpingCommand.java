package io.jrxe.tools.rdmacm;

import io.jrxe.tools.BadOption;
import io.jrxe.tools.UserError;
import io.jrxe.tools.common.CmNic;
import io.jrxe.tools.common.CmNicOptions;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.cm.CmEventChannel;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;

/** `jrxe rping`: librdmacm's rping (RDMA CM connection and RDMA ping-pong test) with its options, output and exit codes. */
@Command(name = "rping",
        description = {"rping, the RDMA CM ping-pong test of rdma-core's librdmacm, on a jrxe NIC: the client connects "
                + "through the connection manager, then for each ping the server RDMA READs the client's buffer and "
                + "RDMA WRITEs it back. Interoperates with the real rping.",
                "The jrxe NIC is made on the address the program uses: the server's -a (127.0.0.1, or ::1 for -a ::0, "
                        + "when it binds the wildcard), the client's -I, else the address this host sends from to the "
                        + "server (for a server on loopback 127.x.y.z, 127.x.y.(z+1)); --addr overrides it.",
                "Exit status: 0 when the pings went through (the server: when its client disconnected); 255 after a "
                        + "connection error or a failed ping, with rping's line on stderr "
                        + "(cma event RDMA_CM_EVENT_REJECTED, error 8: nobody listens on the port)."})
public final class RpingCommand implements Callable<Integer> {
    /** RPING_MIN_BUFSIZE: sizeof("INT_MAX") + sizeof("rdma-ping-%d: "), as rping's macro expands. */
    static final int MIN_SIZE = 23;
    /** RPING_BUFSIZE - 1. */
    static final int MAX_SIZE = 64 * 1024 - 1;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "-s", description = "server side")
    boolean server;

    @Option(names = "-c", description = "client side")
    boolean client;

    @Option(names = "-a", paramLabel = "ADDR", description = "the server: the address to bind to (default: any IPv4 address; "
            + "-a ::0 for any IPv6 address); the client: the server's address")
    String address;

    @Option(names = "-I", paramLabel = "ADDR", description = "the client: the source address to bind to")
    String source;

    @Option(names = "-p", paramLabel = "PORT", defaultValue = "7174", description = "the port (default: ${DEFAULT-VALUE})")
    int port;

    @Option(names = "-C", paramLabel = "COUNT", defaultValue = "0", description = "ping count times (default: 0, for ever)")
    int count;

    @Option(names = "-S", paramLabel = "SIZE", defaultValue = "64",
            description = "ping data size, " + MIN_SIZE + " to " + MAX_SIZE + " (default: ${DEFAULT-VALUE})")
    int size;

    @Option(names = "-v", description = "display ping data to stdout")
    boolean verbose;

    @Option(names = "-V", description = "validate ping data (the client compares what came back with what it sent)")
    boolean validate;

    @Option(names = "-d", description = "debug printfs")
    boolean debug;

    @Option(names = "-P", description = "persistent server mode allowing multiple connections (until killed)")
    boolean persistent;

    @Option(names = "-q", description = "use a self-created, self-modified QP (jrxe's CM API moves the QP itself: refused)")
    boolean selfCreatedQp;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    boolean help;

    @Mixin
    CmNicOptions nic;

    @Override
    public Integer call() throws Exception {
        validate();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        RpingSettings s = new RpingSettings(count, size, verbose, validate, debug, out, err);
        s.debug("port %d", port);
        s.debug(server ? "server" : "client");
        InetAddress target = address != null ? CmAddresses.parse(address, "-a") : CmAddresses.IPV4_LOOPBACK;
        InetAddress bind = address != null ? target : CmAddresses.wildcard(target);
        InetAddress from = !server && source != null ? CmAddresses.parse(source, "-I") : null;
        InetAddress nicAddress = nic.address() != null ? nic.address()
                : server ? CmAddresses.serverNic(bind)
                : from != null && !from.isAnyLocalAddress() ? from : CmAddresses.clientNic(target, "-I");
        try (CmNic cm = CmNic.open(nic, nicAddress, err); CmEventChannel channel = cm.cm().createEventChannel()) {
            int status = server ? new RpingServer(s, channel).run(new InetSocketAddress(bind, port), persistent)
                    : new RpingClient(s, channel).run(from == null ? null : new InetSocketAddress(from, 0),
                    new InetSocketAddress(target, port));
            cm.report(err);
            return status;
        } catch (VerbsException e) {
            throw new UserError(e.getMessage(), e);
        }
    }

    private void validate() {
        if (size < MIN_SIZE || size > MAX_SIZE) {
            throw new BadOption("-S " + size + ": Invalid size " + size + " (valid range is " + MIN_SIZE + " to " + MAX_SIZE + ")");
        }
        if (count < 0) {
            throw new BadOption("-C " + count + ": Invalid count " + count);
        }
        if (port < 1 || port > 65535) {
            throw new BadOption("-p " + port + ": a port is 1..65535");
        }
        if (server == client) {
            throw new BadOption(server ? "-s and -c: be the server or the client, not both"
                    : "-s or -c: say whether to be the server or the client");
        }
        if (client && address == null) {
            throw new BadOption("-a: the client needs the server's address");
        }
        if (selfCreatedQp) {
            throw new BadOption("-q: a self-created, self-modified QP needs rdma_init_qp_attr and rdma_establish, which "
                    + "jrxe's connection manager API does not have; without -q the CM moves the QP");
        }
        nic.nativeProvider();
    }
}
