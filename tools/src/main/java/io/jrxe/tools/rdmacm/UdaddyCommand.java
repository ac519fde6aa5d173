package io.jrxe.tools.rdmacm;

import io.jrxe.tools.BadOption;
import io.jrxe.verbs.cm.PortSpace;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** `jrxe udaddy`: librdmacm's UD test (udaddy.c, SIDR in the UDP port space), with its options, output and return status. */
@Command(name = "udaddy",
        description = {"udaddy, rdma-core's RDMA CM datagram test, on a jrxe NIC: -c UD QPs found through the "
                + "connection manager (SIDR, UDP port space, port 7174); the client sends -C datagrams to each, the "
                + "server answers with as many. Interoperates with the real udaddy.",
                "The jrxe NIC is made on -b, else (the server) 127.0.0.1, or (the client) the address this host sends "
                        + "from to the server (for a server on loopback 127.x.y.z, 127.x.y.(z+1)); --addr overrides it.",
                "Exit status: the \"return status\" it prints, modulo 256."})
public final class UdaddyCommand implements Callable<Integer> {
    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    CmTestOptions test;

    @Option(names = "-p", paramLabel = "PORT_SPACE", description = "the port space as a number, for backwards "
            + "compatibility: 0x111 (UDP, the default; 0x2, IPoIB's: refused)")
    String portSpaceNumber;

    @Option(names = "-P", paramLabel = "PORT_SPACE", description = "udp (ipoib, IPoIB's port space: refused)")
    String portSpace;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        test.validate(err);
        if (portSpaceNumber != null && parsePortSpace(portSpaceNumber) != PortSpace.UDP.value()) {
            throw new BadOption("-p " + portSpaceNumber + ": the UDP port space is 0x111; jrxe has no other for udaddy");
        }
        CmTestOptions.checkPortSpace(portSpace, "udp", "ipoib", "the IPoIB port space is InfiniBand's; RoCE uses udp", err);
        return test.run(err, channel -> new Udaddy(test, channel, out, err));
    }

    /** strtol(text, NULL, 0): decimal, 0x hexadecimal or 0 octal. */
    private static int parsePortSpace(String text) {
        try {
            return Integer.decode(text.strip());
        } catch (NumberFormatException e) {
            throw new BadOption("-p " + text + ": a port space number, 0x111 for UDP");
        }
    }
}
