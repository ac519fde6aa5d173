package io.jrxe.tools.demo;

import io.jrxe.tools.UserError;
import io.jrxe.tools.common.DeviceOptions;
import io.jrxe.tools.common.IpAddressOption;
import io.jrxe.wire.port.fault.FaultSpec;
import io.jrxe.wire.port.udp.PortInUseException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** `jrxe demo`: the README's main job. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Two software RDMA NICs in this process, on two loopback addresses, doing one RDMA operation of "
                + "each kind over real UDP (RoCEv2): SEND/RECV, SEND_WITH_IMM, RDMA_WRITE, RDMA_WRITE_WITH_IMM, RDMA_READ, "
                + "the two atomics, a message of several packets, and a deliberate mistake. Each step tells the work "
                + "request, the packets that crossed the wire and the completions; the packets go to a capture file.",
        exitCodeListHeading = "Exit status:%n",
        exitCodeList = {"0:every step behaved as expected", "1:a step did not, or bad options",
            "2:the demo could not start (an address or port is taken, ...)"})
public final class DemoCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--capture", paramLabel = "FILE", defaultValue = "jrxe-demo.pcapng",
            description = "where to write the packets (pcapng; default: ${DEFAULT-VALUE})")
    Path capture;

    @Option(names = "--no-capture", description = "write no capture file")
    boolean noCapture;

    @Option(names = "--addr-a", paramLabel = "IP", defaultValue = "127.0.0.1", description = "jrxe0's address (default: ${DEFAULT-VALUE})")
    String addressA;

    @Option(names = "--addr-b", paramLabel = "IP", defaultValue = "127.0.0.2", description = "jrxe1's address (default: ${DEFAULT-VALUE}; where the machine lacks it, both NICs share --addr-a on UDP ports 4791 and 4792)")
    String addressB;

    @Option(names = "--faults", paramLabel = "SPEC",
            description = "jrxe0's port does these faults to the packets it sends and receives, so that a failure "
                    + "becomes a ladder in the capture: the verbs tools' --faults (e.g. 'drop,nth=1' loses the first "
                    + "packet of each message, 'rnr,op=ack' answers RNR where an ACK would go, 'delay:100ms,op=ack' "
                    + "holds ACKs past the timeout; docs/commands.md, --faults). Each step still checks what arrived")
    String faults;

    @Override
    public Integer call() throws Exception {
        FaultSpec faultSpec = DeviceOptions.faults(faults);
        InetAddress a = address(addressA);
        InetAddress b = address(addressB);
        boolean bAsked = spec.commandLine().getParseResult().hasMatchedOption("--addr-b");
        DemoPlacement placement = DemoPlacement.choose(a, b, bAsked, DemoPlacement::isLocal);
        try {
            return new Demo(spec.commandLine().getOut(), placement, noCapture ? null : capture, faultSpec).run() ? 0 : 1;
        } catch (PortInUseException e) {
            throw new UserError(e.getMessage(), e);
        }
    }

    private static InetAddress address(String literal) {
        return IpAddressOption.parse(literal, "not an IP address: " + literal);
    }
}
