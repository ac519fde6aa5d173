package io.jrxe.verbs.emulated;

import io.jrxe.verbs.Errno;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.cm.CmEventChannel;
import io.jrxe.verbs.cm.RdmaCm;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The connection manager of the emulated provider: librdmacm's layer over the CM of each jrxe NIC
 * of this JVM. An IP address names the NIC that has it, as a netdev names its RDMA device; ports
 * are this JVM's ({@link CmPortTable}). Every identifier bound to a device shares one context and
 * one default PD of that device, as librdmacm shares one ibv_context per device.
 */
final class EmulatedRdmaCm implements RdmaCm {
    private final EmulatedProvider provider;
    final CmPortTable ports = new CmPortTable();
    private final Map<EmulatedDevice, EmulatedContext> contexts = new ConcurrentHashMap<>();
    private final Map<EmulatedDevice, Pd> defaultPds = new ConcurrentHashMap<>();

    EmulatedRdmaCm(EmulatedProvider provider) {
        this.provider = provider;
    }

    @Override
    public String provider() {
        return EmulatedProvider.NAME;
    }

    @Override
    public CmEventChannel createEventChannel() {
        return new EmulatedCmEventChannel(this);
    }

    /** The devices with a network, and so a CM. */
    List<EmulatedDevice> networkDevices() {
        List<EmulatedDevice> all = new ArrayList<>();
        for (var d : provider.devices()) {
            EmulatedDevice e = (EmulatedDevice) d;
            if (e.cm() != null) {
                all.add(e);
            }
        }
        return all;
    }

    /** The device that has {@code address}, or an EADDRNOTAVAIL refusal naming the addresses there are. */
    EmulatedDevice deviceWith(InetAddress address) throws VerbsException {
        List<EmulatedDevice> devices = networkDevices();
        for (EmulatedDevice d : devices) {
            if (d.rnic().config().addresses().contains(address)) {
                return d;
            }
        }
        throw new VerbsException(Errno.EADDRNOTAVAIL, "no jrxe device of this JVM has the address "
                + address.getHostAddress() + devicesSaid(devices));
    }

    /**
     * The device to reach {@code destination} from: one of its address family other than the
     * destination itself, else the destination's own device (a connection to itself).
     */
    EmulatedDevice deviceToward(InetAddress destination) throws VerbsException {
        List<EmulatedDevice> devices = networkDevices();
        EmulatedDevice itself = null;
        for (EmulatedDevice d : devices) {
            InetAddress a = d.rnic().config().addresses().getFirst();
            if (a.getClass() == destination.getClass()) {
                if (!a.equals(destination)) {
                    return d;
                }
                itself = d;
            }
        }
        if (itself != null) {
            return itself;
        }
        throw new VerbsException(Errno.ENETUNREACH, "no jrxe device of this JVM reaches "
                + destination.getHostAddress() + devicesSaid(devices));
    }

    private static String devicesSaid(List<EmulatedDevice> devices) {
        if (devices.isEmpty()) {
            return ": there is none (make one with Verbs.emulated().createUdp)";
        }
        List<String> said = new ArrayList<>();
        for (EmulatedDevice d : devices) {
            said.add(d.name() + " " + d.rnic().config().addresses().getFirst().getHostAddress());
        }
        return "; there are " + String.join(", ", said);
    }

    /** The context every identifier on {@code device} shares. */
    EmulatedContext context(EmulatedDevice device) {
        return contexts.computeIfAbsent(device, EmulatedContext::new);
    }

    /** The PD rdma_create_qp uses when it is given none. */
    Pd defaultPd(EmulatedDevice device) throws VerbsException {
        Pd pd = defaultPds.get(device);
        if (pd == null) {
            synchronized (this) {
                pd = defaultPds.get(device);
                if (pd == null) {
                    pd = context(device).allocPd();
                    defaultPds.put(device, pd);
                }
            }
        }
        return pd;
    }

    /** A thread is about to sleep on a CM event: invoked NICs must not wait for it to run them. */
    void leaveAll() {
        for (EmulatedDevice d : networkDevices()) {
            d.leave();
        }
    }

    /** A device went away: its context and default PD go with it. */
    void forget(EmulatedDevice device) {
        contexts.remove(device);
        defaultPds.remove(device);
    }
}
