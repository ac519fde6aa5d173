package io.jrxe.tools.states;

import io.jrxe.tools.BadOption;
import io.jrxe.tools.UserError;
import io.jrxe.tools.common.IpAddressOption;
import io.jrxe.tools.demo.DemoPlacement;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.verbs.facade.Verbs;
import io.jrxe.wire.port.udp.PortInUseException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.net.InetAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/** `jrxe states`: the verbs objects, the QP state machine and the SRQ's memory, shown on two jrxe NICs. */
@Command(name = "states", mixinStandardHelpOptions = true,
        description = "For students: two software RDMA NICs in this process, each object created with its identifiers"
                + " (context, PD, MR and its keys, CQ, QP), each QP transition RESET -> INIT -> RTR -> RTS tried first"
                + " without an attribute it requires (the real refusal is printed) and then with all of them, posting"
                + " before RTS refused, and the receive-buffer memory of many connections with one receive queue each"
                + " against one shared receive queue (SRQ). The same run prints the same text.",
        exitCodeListHeading = "Exit status:%n",
        exitCodeList = {"0:every step behaved as described", "1:a step did not, or bad options",
            "2:the NICs could not start (an address or port is taken, ...)"})
public final class StatesCommand implements Callable<Integer> {
    /** Above this the SRQ scene's per-QP buffers would be a memory test, not a lesson. */
    static final long MAX_SCENE_BYTES = 256L << 20;

    @Spec
    CommandSpec spec;

    @Option(names = "--addr-a", paramLabel = "IP", defaultValue = "127.0.0.1", description = "jrxe0's address (default: ${DEFAULT-VALUE})")
    String addressA;

    @Option(names = "--addr-b", paramLabel = "IP", defaultValue = "127.0.0.2", description = "jrxe1's address (default: ${DEFAULT-VALUE}; where the machine lacks it, both NICs share --addr-a on UDP ports 4791 and 4792)")
    String addressB;

    @Option(names = "--connections", paramLabel = "N", defaultValue = "8", description = "SRQ scene: connections (QPs) (default: ${DEFAULT-VALUE})")
    int connections;

    @Option(names = "--receives", paramLabel = "R", defaultValue = "16", description = "SRQ scene: receives each connection keeps posted (default: ${DEFAULT-VALUE})")
    int receives;

    @Option(names = "--receive-size", paramLabel = "S", defaultValue = "4096", description = "SRQ scene: bytes of each receive buffer (default: ${DEFAULT-VALUE})")
    int receiveSize;

    @Option(names = "--active", paramLabel = "A", defaultValue = "2", description = "SRQ scene: connections expected to receive at once; the SRQ holds A x R receives (default: ${DEFAULT-VALUE})")
    int active;

    @Option(names = "--srq-scene", description = "show the SRQ scene only (not the objects and transitions)")
    boolean srqSceneOnly;

    @Option(names = "--json", description = "print the same steps as one JSON object")
    boolean json;

    @Override
    public Integer call() throws Exception {
        StatesLab.SrqScene scene = checkedScene();
        InetAddress a = IpAddressOption.parse(addressA, "not an IP address: " + addressA);
        InetAddress b = IpAddressOption.parse(addressB, "not an IP address: " + addressB);
        boolean bAsked = spec.commandLine().getParseResult().hasMatchedOption("--addr-b");
        DemoPlacement placement = DemoPlacement.choose(a, b, bAsked, DemoPlacement::isLocal);
        PrintWriter out = spec.commandLine().getOut();
        StatesReport report = new StatesReport();
        EmulatedDevice devA = null;
        EmulatedDevice devB = null;
        try (Arena arena = Arena.ofShared()) {
            StatesLab lab = new StatesLab(report, arena);
            devA = Verbs.emulated().createUdp(placement.configA("jrxe0"));
            if (!srqSceneOnly) {
                devB = Verbs.emulated().createUdp(placement.configBNumberedApart("jrxe1"));
                lab.objectsAndTransitions("jrxe0", devA, "jrxe1", devB);
            }
            lab.sharedReceiveQueue("jrxe0", devA, scene);
        } catch (PortInUseException e) {
            throw new UserError(e.getMessage(), e);
        } finally {
            if (devA != null) {
                Verbs.emulated().remove(devA);
            }
            if (devB != null) {
                Verbs.emulated().remove(devB);
            }
        }
        if (json) {
            Map<String, Object> setup = new LinkedHashMap<>();
            setup.put("jrxe0", placement.where(placement.addressA(), placement.portA()));
            setup.put("jrxe1", placement.where(placement.addressB(), placement.portB()));
            if (placement.notice() != null) {
                setup.put("notice", placement.notice());
            }
            setup.put("connections", connections);
            setup.put("receives", receives);
            setup.put("receiveSize", receiveSize);
            setup.put("active", active);
            report.printJson(out, setup);
        } else {
            String header = "jrxe states: jrxe0 at " + placement.where(placement.addressA(), placement.portA())
                    + (srqSceneOnly ? "" : ", jrxe1 at " + placement.where(placement.addressB(), placement.portB()))
                    + ", RoCEv2 over UDP";
            report.printText(out, placement.notice() == null ? header : "jrxe states: " + placement.notice() + "\n" + header);
        }
        return report.allAsExpected() ? 0 : 1;
    }

    /** The SRQ scene's sizes, or a one-line error naming the option that is out of range. */
    private StatesLab.SrqScene checkedScene() {
        if (connections < 1 || connections > 1024) {
            throw new BadOption("--connections must be 1..1024, not " + connections);
        }
        if (receives < 1 || receives > 4096) {
            throw new BadOption("--receives must be 1..4096, not " + receives);
        }
        if (receiveSize < 1 || receiveSize > (1 << 20)) {
            throw new BadOption("--receive-size must be 1..1048576 bytes, not " + receiveSize);
        }
        if (active < 1 || active > connections) {
            throw new BadOption("--active must be 1..--connections (" + connections + "), not " + active);
        }
        long perQp = (long) connections * receives * receiveSize;
        if (perQp > MAX_SCENE_BYTES) {
            throw new BadOption("--connections x --receives x --receive-size is " + perQp + " bytes; at most "
                    + MAX_SCENE_BYTES + " (256 MiB)");
        }
        return new StatesLab.SrqScene(connections, receives, receiveSize, active);
    }
}
