package io.jrxe.tools.perfquery;

import io.jrxe.rnic.Nic;
import io.jrxe.rnic.RnicException;
import io.jrxe.tools.BadOption;
import io.jrxe.tools.UserError;
import io.jrxe.tools.common.DeviceOptions;
import io.jrxe.tools.common.EmulatedLocalDevice;
import io.jrxe.tools.common.IpAddressOption;
import io.jrxe.tools.common.ProviderChoice;
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
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * `jrxe perfquery`: what infiniband-diags' perfquery asks a port's Performance Management agent, over RoCE. A jrxe
 * NIC (the common device options) sends a Get of ClassPortInfo, then of PortCounters (or with --ext
 * PortCountersExtended) to QP1 of the port at GID_OR_IP, with the GSI Q_Key and P_Key index 0, and prints the
 * GetResp field by field as perfquery does, or as JSON. Any RoCE port with a PMA answers: another jrxe NIC, or a
 * Linux 7.2 rxe.
 */
@Command(name = "perfquery", mixinStandardHelpOptions = true,
        description = "Ask a RoCE port's Performance Management agent (on QP1) for its PortCounters, or with --ext its "
                + "PortCountersExtended, and print them as infiniband-diags' perfquery does.")
public final class PerfqueryCommand implements java.util.concurrent.Callable<Integer> {
    /** perfquery pads each field's name with dots to this column. */
    private static final int NAME_COLUMN = 33;

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

    @Parameters(paramLabel = "GID_OR_IP", description = "the port to ask: its IP address, or its GID written as an IPv6 address")
    String target;

    @Override
    public Integer call() {
        if (device.choice() instanceof ProviderChoice.Native) {
            throw new BadOption("-d " + device.deviceName() + ": perfquery sends from a jrxe NIC; for a kernel device "
                    + "use infiniband-diags' perfquery");
        }
        if (portSelect < 0 || portSelect > 255) {
            throw new BadOption("--port-select " + portSelect + ": a port number is 0 to 255");
        }
        device.checkValues();
        timeoutMillis = device.timeoutMillis();
        InetAddress address = IpAddressOption.parse(target, "GID_OR_IP " + target + ": not an IP address or GID");
        PeerAddress to = PeerAddress.of(address);
        PrintWriter out = spec.commandLine().getOut();
        try (EmulatedLocalDevice local = EmulatedLocalDevice.open(device, spec.commandLine().getErr())) {
            Nic nic = local.device().nic();
            ByteBuffer info = ask(nic, to, PmaAttribute.CLASS_PORT_INFO);
            int capabilityMask = new ClassPortInfoFlyweight().wrap(info, PerfMgmt.DATA_OFFSET).capabilityMask();
            PmaAttribute attribute = extended ? PmaAttribute.PORT_COUNTERS_EXTENDED : PmaAttribute.PORT_COUNTERS;
            ByteBuffer counters = ask(nic, to, attribute);
            if (json) {
                printJson(out, attribute, capabilityMask, counters);
            } else {
                printText(out, attribute, capabilityMask, counters);
            }
            out.flush();
            local.report(spec.commandLine().getErr());
            return 0;
        }
    }

    /** The GetResp to a Get of {@code attribute}, copied; a one-line error on no answer or an error status. */
    private ByteBuffer ask(Nic nic, PeerAddress to, PmaAttribute attribute) {
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
        ByteBuffer mad;
        try {
            mad = answer.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            forget(nic, tid);
            throw new UserError("no answer to a Get of " + attribute.displayName() + " from " + target + " within "
                    + timeoutMillis + " ms (is there a RoCE port with a PerfMgmt agent there?)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserError("interrupted while waiting for " + target, e);
        } catch (ExecutionException e) {
            throw new UserError(String.valueOf(e.getCause()), e);
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
