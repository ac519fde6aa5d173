package io.jrxe.tools.perfquery;

import io.jrxe.rnic.Nic;
import io.jrxe.rnic.RnicException;
import io.jrxe.tools.BadOption;
import io.jrxe.tools.UserError;
import io.jrxe.tools.common.DeviceOptions;
import io.jrxe.tools.common.EmulatedLocalDevice;
import io.jrxe.tools.common.FamilyGid;
import io.jrxe.tools.common.IpAddressOption;
import io.jrxe.tools.common.LocalDevice;
import io.jrxe.tools.common.ProviderChoice;
import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.VerbsException;
import io.jrxe.wire.cm.CmField;
import io.jrxe.wire.cm.MadHeaderFlyweight;
import io.jrxe.wire.pma.ClassPortInfoFlyweight;
import io.jrxe.wire.pma.PerfMgmt;
import io.jrxe.wire.pma.PmaAttribute;
import io.jrxe.wire.json.Json;
import io.jrxe.wire.port.PeerAddress;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * `jrxe perfquery`: what infiniband-diags' perfquery asks a port's Performance Management agent, over RoCE. A jrxe
 * NIC (the common device options) sends a Get of ClassPortInfo, then of PortCounters (or with --ext
 * PortCountersExtended) to QP1 of the port at GID_OR_IP, with the GSI Q_Key and P_Key index 0, and prints the
 * GetResp field by field as perfquery does, or as JSON. Any RoCE port with a PMA answers: another jrxe NIC, or a
 * Linux 7.2 rxe. A kernel device (-d rxe0), or any device with --ud-qp, sends from a UD QP of the program's own
 * ({@link UdQpPmaClient}) instead of the device's QP1.
 */
@Command(name = "perfquery", mixinStandardHelpOptions = true,
        description = "Ask a RoCE port's Performance Management agent (on QP1) for its PortCounters, or with --ext its "
                + "PortCountersExtended, and print them as infiniband-diags' perfquery does.")
public final class PerfqueryCommand implements java.util.concurrent.Callable<Integer> {
    /** perfquery pads each field's name with dots to this column. */
    private static final int NAME_COLUMN = 33;
    /** The local port the Gets leave from, as perfquery's default. */
    private static final int PORT = 1;

    @Spec
    CommandLine.Model.CommandSpec spec;

    /** How long each answer may take: the common --timeout. */
    private long timeoutMillis;
    /** Whether the user was told that the target's answers come with a blank header. */
    private boolean blankNoted;

    @Mixin
    DeviceOptions device;

    @Option(names = {"-x", "--ext"}, description = "ask for PortCountersExtended (64-bit counters) instead of PortCounters")
    boolean extended;

    @Option(names = "--json", description = "print the answer as one JSON object")
    boolean json;

    @Option(names = {"-P", "--port-select"}, paramLabel = "PORT", defaultValue = "1",
            description = "the port whose counters to ask for (PortSelect; default: ${DEFAULT-VALUE})")
    int portSelect;

    @Option(names = "--ud-qp", description = "send from a UD QP of this program's own, with the GSI Q_Key, instead of the "
            + "device's QP1 (a kernel device such as -d rxe0 always does: its QP1 is the kernel's; the Q_Key needs root there)")
    boolean udQp;

    @Parameters(paramLabel = "GID_OR_IP", description = "the port to ask: its IP address, or its GID written as an IPv6 address")
    String target;

    @Option(names = {"-g", "--gid-idx"}, paramLabel = "INDEX", defaultValue = "-1",
            description = "with --ud-qp, the local GID index to send from (default: a RoCE v2 GID of the target's family)")
    int gidIndex;

    @Override
    public Integer call() {
        if (portSelect < 0 || portSelect > 255) {
            throw new BadOption("--port-select " + portSelect + ": a port number is 0 to 255");
        }
        boolean fromUdQp = udQp || device.choice() instanceof ProviderChoice.Native;
        if (gidIndex >= 0 && !fromUdQp) {
            throw new BadOption("-g/--gid-idx " + gidIndex + ": only with --ud-qp or a kernel device (QP1 sends from the "
                    + "port's own GID)");
        }
        device.checkValues();
        timeoutMillis = device.timeoutMillis();
        InetAddress address = IpAddressOption.parse(target, "GID_OR_IP " + target + ": not an IP address or GID");
        PrintWriter out = spec.commandLine().getOut();
        try (LocalDevice local = device.open(spec.commandLine().getErr())) {
            Asker asker;
            UdQpPmaClient client = null;
            if (fromUdQp) {
                GidEntry from = FamilyGid.choose(local, PORT, gidIndex, address instanceof Inet6Address, "GID_OR_IP " + target);
                client = new UdQpPmaClient(local, PORT, from, GidEntry.gidOf(address));
                UdQpPmaClient c = client;
                SplittableRandom tids = new SplittableRandom();
                asker = attribute -> {
                    try {
                        return c.ask(attribute, portSelect, tids.nextLong() & 0x7FFF_FFFF_FFFF_FFFFL, timeoutMillis);
                    } catch (VerbsException e) {
                        throw new UserError("the Get of " + attribute.displayName() + ": " + e.getMessage(), e);
                    }
                };
            } else {
                Nic nic = ((EmulatedLocalDevice) local).device().nic();
                PeerAddress to = PeerAddress.of(address);
                asker = attribute -> askFromQp1(nic, to, attribute);
            }
            try {
                ByteBuffer info = ask(asker, PmaAttribute.CLASS_PORT_INFO);
                int capabilityMask = new ClassPortInfoFlyweight().wrap(info, PerfMgmt.DATA_OFFSET).capabilityMask();
                PmaAttribute attribute = extended ? PmaAttribute.PORT_COUNTERS_EXTENDED : PmaAttribute.PORT_COUNTERS;
                ByteBuffer counters = ask(asker, attribute);
                if (json) {
                    printJson(out, attribute, capabilityMask, counters);
                } else {
                    printText(out, attribute, capabilityMask, counters);
                }
                out.flush();
            } finally {
                if (client != null) {
                    client.close();
                }
            }
            local.report(spec.commandLine().getErr());
            return 0;
        }
    }

    /** Sends one Get and returns the whole GetResp, or null when none came within the timeout. */
    @FunctionalInterface
    private interface Asker {
        ByteBuffer ask(PmaAttribute attribute);
    }

    /** The GetResp to a Get of {@code attribute}; a one-line error on no answer or an error status. */
    private ByteBuffer ask(Asker asker, PmaAttribute attribute) {
        ByteBuffer mad = asker.ask(attribute);
        if (mad == null) {
            throw new UserError("no answer to a Get of " + attribute.displayName() + " from " + target + " within "
                    + timeoutMillis + " ms (is there a RoCE port with a PerfMgmt agent there?)");
        }
        MadHeaderFlyweight header = new MadHeaderFlyweight().wrap(mad, 0);
        if (header.isBlank() && !blankNoted) {
            blankNoted = true;
            spec.commandLine().getErr().println("jrxe perfquery: " + target + " answers with a blank MAD header (no class, "
                    + "method or transaction ID), as Linux 7.2's rxe does; each such answer is taken as the answer to the one "
                    + "Get waiting for it");
        }
        int status = header.status();
        if (status != 0) {
            throw new UserError(target + " answered the Get of " + attribute.displayName() + " with "
                    + PerfMgmt.describeStatus(status));
        }
        return mad;
    }

    /** A Get from the jrxe NIC's QP1, through its PerfMgmt agent; null when no answer came in time. */
    private ByteBuffer askFromQp1(Nic nic, PeerAddress to, PmaAttribute attribute) {
        CompletableFuture<ByteBuffer> answer = new CompletableFuture<>();
        long tid;
        try {
            tid = nic.executor().call(() -> nic.pma().query(to, attribute, portSelect, mad -> {
                ByteBuffer copy = ByteBuffer.allocate(MadHeaderFlyweight.MAD_LENGTH);
                copy.put(0, mad, 0, MadHeaderFlyweight.MAD_LENGTH);
                answer.complete(copy);
            }));
        } catch (RnicException e) {
            throw new UserError(e.getMessage(), e);
        }
        try {
            return answer.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            forget(nic, tid);
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserError("interrupted while waiting for " + target, e);
        } catch (ExecutionException e) {
            throw new UserError(String.valueOf(e.getCause()), e);
        }
    }

    private static void forget(Nic nic, long tid) {
        try {
            nic.executor().call(() -> {
                nic.pma().forget(tid);
                return null;
            });
        } catch (RnicException ignored) {
            // The NIC is closing: nothing waits any more.
        }
    }

    private void printText(PrintWriter out, PmaAttribute attribute, int capabilityMask, ByteBuffer mad) {
        out.printf("# %s: %s port %d (CapMask: 0x%04X)%n",
                attribute == PmaAttribute.PORT_COUNTERS ? "Port counters" : "Port extended counters", target,
                portSelect, capabilityMask);
        for (CmField f : attribute.fields()) {
            if (f.kind() == CmField.Kind.RESERVED) {
                continue;
            }
            String name = f.label() + ":";
            out.print(name);
            out.print(".".repeat(Math.max(1, NAME_COLUMN - name.length())));
            out.println(value(f, f.get(mad, PerfMgmt.DATA_OFFSET)));
        }
    }

    private static String value(CmField f, long v) {
        return f.kind() == CmField.Kind.HEX ? String.format("0x%0" + (f.width() + 3) / 4 + "x", v) : Long.toUnsignedString(v);
    }

    private void printJson(PrintWriter out, PmaAttribute attribute, int capabilityMask, ByteBuffer mad) {
        out.println(Json.text(g -> {
            g.writeStartObject();
            g.writeStringField("target", target);
            g.writeStringField("attribute", attribute.displayName());
            g.writeNumberField("port_select", portSelect);
            g.writeNumberField("capability_mask", capabilityMask);
            g.writeObjectFieldStart("counters");
            for (CmField f : attribute.fields()) {
                if (f.kind() != CmField.Kind.RESERVED) {
                    Json.unsignedField(g, f.name(), f.get(mad, PerfMgmt.DATA_OFFSET));
                }
            }
            g.writeEndObject();
            g.writeEndObject();
        }));
    }
}
