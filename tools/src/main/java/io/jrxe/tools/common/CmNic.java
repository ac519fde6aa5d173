package io.jrxe.tools.common;

import io.jrxe.tools.UserError;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.cm.RdmaCm;
import io.jrxe.verbs.facade.Verbs;

import java.io.PrintWriter;
import java.net.InetAddress;

/**
 * The connection manager a librdmacm program runs on, with the jrxe NIC it reaches (none for --provider native,
 * where the kernel's devices are librdmacm's). The NIC is made before the program creates its first identifier,
 * on the address the program will bind or send from, so that the emulated CM finds it by that address as
 * librdmacm finds a device by its netdev's address. Closing it removes the NIC and finishes the capture.
 */
public final class CmNic implements AutoCloseable {
    /** The name of the NIC a CM tool makes (the tools name no device; this one shows in captures and counters). */
    public static final String NAME = "jrxe0";

    private final RdmaCm cm;
    private final EmulatedLocalDevice nic;

    private CmNic(RdmaCm cm, EmulatedLocalDevice nic) {
        this.cm = cm;
        this.nic = nic;
    }

    /**
     * The CM, with a jrxe NIC on {@code nicAddress} unless the options ask for the native provider; a NIC that
     * cannot be made (its address is not this host's, port 4791 is taken there) is a one-line {@link UserError}.
     */
    public static CmNic open(CmNicOptions options, InetAddress nicAddress, PrintWriter err) {
        try {
            if (options.nativeProvider()) {
                return new CmNic(Verbs.nativeProvider().rdmaCm(), null);
            }
            EmulatedLocalDevice nic = EmulatedLocalDevice.open(options.deviceOptions(NAME, nicAddress), err);
            return new CmNic(Verbs.emulated().rdmaCm(), nic);
        } catch (VerbsException e) {
            throw new UserError(e.getMessage(), e);
        }
    }

    public RdmaCm cm() {
        return cm;
    }

    /** The jrxe NIC's address, or null for the native provider. */
    public InetAddress nicAddress() {
        return nic == null ? null : nic.device().nic().resources().config().addresses().getFirst();
    }

    /** What the command tells on stderr as it ends: with --counters, the NIC's counters that moved. */
    public void report(PrintWriter err) {
        if (nic != null) {
            nic.report(err);
        }
    }

    @Override
    public void close() {
        if (nic != null) {
            nic.close();
        }
    }
}
