package io.jrxe.tools.rdmacm;

import io.jrxe.tools.BadOption;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** `jrxe ucmatose`: librdmacm's RC connection test (cmatose.c), with its options, output and return status. */
@Command(name = "ucmatose",
        description = {"ucmatose, rdma-core's RDMA CM connection test, on a jrxe NIC: -c RC connections through the "
                + "connection manager; the server SENDs -C messages on each, the client answers with as many; the "
                + "server disconnects. Interoperates with the real ucmatose.",
                "The jrxe NIC is made on -b, else (the server) 127.0.0.1, or (the client) the address this host sends "
                        + "from to the server (for a server on loopback 127.x.y.z, 127.x.y.(z+1)); --addr overrides it.",
                "Exit status: the \"return status\" it prints, modulo 256: 0, or the REJ reason of a refused "
                        + "connection (8: nobody listens on the port), or a negative errno."})
public final class UcmatoseCommand implements Callable<Integer> {
    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    CmTestOptions test;

    @Option(names = "-p", paramLabel = "PORT", defaultValue = "7471", description = "the port (default: ${DEFAULT-VALUE})")
    int port;

    @Option(names = "-P", paramLabel = "PORT_SPACE", description = "tcp (ib, InfiniBand's port space: refused)")
    String portSpace;

    @Option(names = "-a", paramLabel = "ACK_TIMEOUT", description = "the QP's ACK timeout: asked of the connection "
            + "manager, which has no rdma_set_option in jrxe, so the program says that it failed and goes on")
    String ackTimeout;

    @Option(names = "-m", description = "migrate the identifiers to a new event channel (rdma_migrate_id: not in jrxe's "
            + "connection manager API, refused)")
    boolean migrate;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        test.validate(err);
        if (port < 1 || port > 65535) {
            throw new BadOption("-p " + port + ": a port is 1..65535");
        }
        CmTestOptions.checkPortSpace(portSpace, "tcp", "ib", "the IB port space (AF_IB addresses) is InfiniBand's; "
                + "RoCE uses tcp", err);
        if (migrate) {
            throw new BadOption("-m: rdma_migrate_id is not in jrxe's connection manager API yet");
        }
        return test.run(err, channel -> new Cmatose(test, port, ackTimeout, channel, out, err));
    }
}
