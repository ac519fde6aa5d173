package io.jrxe.verbs.emulated;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicContext;
import io.jrxe.rnic.NicExecutor;
import io.jrxe.rnic.transport.ControlPathOnly;
import io.jrxe.rnic.transport.InvokedTransport;
import io.jrxe.rnic.transport.NicThreadTransport;
import io.jrxe.rnic.transport.NicTransport;
import io.jrxe.rnic.transport.SimulatedTransport;
import io.jrxe.wire.port.shm.ShmDirectory;
import io.jrxe.wire.port.udp.PortInUseException;
import io.jrxe.wire.sim.SimulatedNetwork;
import io.jrxe.verbs.Device;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.Provider;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.cm.RdmaCm;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** jrxe's own NICs: the devices this JVM created, by name. */
public final class EmulatedProvider implements Provider {
    public static final String NAME = "emulated";
    private final List<EmulatedDevice> devices = new CopyOnWriteArrayList<>();
    private final EmulatedRdmaCm rdmaCm = new EmulatedRdmaCm(this);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<Device> devices() {
        return new ArrayList<>(devices);
    }

    /** The connection manager over the jrxe NICs of this JVM. */
    @Override
    public RdmaCm rdmaCm() {
        return rdmaCm;
    }

    /** Makes a device with no network (the control path only) whose commands run on {@code executor}. */
    public EmulatedDevice create(DeviceConfig config, NicExecutor executor) {
        return create(new NicContext(config).transport(ControlPathOnly.on(executor)));
    }

    /**
     * Makes a device from a context: any transport, congestion control, page-fault hook and counters
     * registry (what a test that swaps a part, or a program that chooses one, builds). It is listed; a
     * device on a NIC thread of its own is also published (JMX).
     */
    public EmulatedDevice create(NicContext context) {
        EmulatedDevice device = new EmulatedDevice(context.open());
        if (context.transport() instanceof NicThreadTransport || context.transport() instanceof InvokedTransport) {
            return listAndPublish(device, context.config());
        }
        try {
            return add(device, context.config());
        } catch (IllegalArgumentException e) {
            device.shutdown();
            throw e;
        }
    }

    /**
     * Makes a device on real UDP: its own NIC thread (an event loop, epoll where available), a
     * socket on its first address, port 4791.
     *
     * @throws PortInUseException when the address cannot be bound (taken, or not local)
     */
    public EmulatedDevice createUdp(DeviceConfig config) throws PortInUseException {
        return createUdp(config, Progress.NIC_THREAD);
    }

    /**
     * Makes a device on real UDP whose engines run as {@code progress} says: on a NIC thread of
     * its own, or on the program's thread when it polls ({@link EmulatedDevice#progress()}).
     *
     * @throws PortInUseException when the address cannot be bound (taken, or not local)
     */
    public EmulatedDevice createUdp(DeviceConfig config, Progress progress) throws PortInUseException {
        return createUdp(new NicContext(config), progress);
    }

    /**
     * Makes a device on real UDP, as {@link #createUdp(DeviceConfig, Progress)} does, from a context that says
     * the rest of what it is built of (its congestion control, say); the transport is this method's.
     *
     * @throws PortInUseException when the address cannot be bound (taken, or not local)
     */
    public EmulatedDevice createUdp(NicContext context, Progress progress) throws PortInUseException {
        DeviceConfig config = context.config();
        NicTransport transport = progress == Progress.INVOKER ? InvokedTransport.bindUdp(config)
                : NicThreadTransport.bindUdp(config);
        return listAndPublish(new EmulatedDevice(context.transport(transport).open()), config);
    }

    /**
     * Makes a device on the shared-memory wire: a ring in {@code directory} for its first address and UDP port, which
     * jrxe devices of this host (in this process or another) write its packets into. Any address will do; the
     * program's thread runs the NIC as it polls ({@link Progress#INVOKER}), a standby thread when it does not.
     *
     * @throws PortInUseException when another live device has the ring, or it cannot be made
     */
    public EmulatedDevice createShm(NicContext context, ShmDirectory directory) throws PortInUseException {
        return createShm(context, directory, Progress.INVOKER);
    }

    /**
     * {@link #createShm(NicContext, ShmDirectory)}, run as {@code progress} says: with {@link Progress#NIC_THREAD}
     * the loop's standby thread runs the NIC all the time and the program only posts and polls, which keeps both
     * busy at once (a bandwidth test's sender builds packets while its program posts the next work requests).
     */
    public EmulatedDevice createShm(NicContext context, ShmDirectory directory, Progress progress)
            throws PortInUseException {
        DeviceConfig config = context.config();
        InvokedTransport transport = InvokedTransport.bindShm(config, directory, progress == Progress.INVOKER);
        return listAndPublish(new EmulatedDevice(context.transport(transport).open()), config);
    }

    /** Lists a device made on a real wire and publishes its live state (JMX); a device that cannot be is released. */
    private EmulatedDevice listAndPublish(EmulatedDevice device, DeviceConfig config) {
        try {
            add(device, config);
        } catch (IllegalArgumentException e) {
            device.shutdown();
            throw e;
        }
        try {
            device.publish();
        } catch (IllegalStateException e) {
            remove(device);
            throw e;
        }
        return device;
    }

    /**
     * Makes a device on real UDP at {@code address}, port 4791, with rxe's attributes and a
     * 1500-byte interface (path MTU 1024): what a program needs, said in verbs terms only. Close
     * the device (or {@link #remove} it) to release its socket and NIC thread.
     *
     * @throws VerbsException EADDRINUSE when the address cannot be bound (taken by another RoCE
     *                        device, or not an address of this host); EINVAL when the name is blank or taken,
     *                        or the address is null
     */
    public EmulatedDevice createUdp(String name, InetAddress address) throws VerbsException {
        return createUdp(name, address, Progress.NIC_THREAD);
    }

    /**
     * Makes a device as {@link #createUdp(String, InetAddress)} does, whose engines run as {@code progress}
     * says: {@link Progress#NIC_THREAD} on a thread of its own, {@link Progress#INVOKER} on the program's thread
     * whenever it polls a CQ or posts (and on a standby thread while it does neither).
     *
     * @throws VerbsException EADDRINUSE when the address cannot be bound (taken by another RoCE
     *                        device, or not an address of this host); EINVAL when the name is blank or taken,
     *                        or the address or {@code progress} is null
     */
    public EmulatedDevice createUdp(String name, InetAddress address, Progress progress) throws VerbsException {
        if (address == null) {
            throw new VerbsException(Errno.EINVAL, "device " + name + " needs an address to bind");
        }
        if (progress == null) {
            throw new VerbsException(Errno.EINVAL, "device " + name + " needs a progress mode: "
                    + Progress.NIC_THREAD + " or " + Progress.INVOKER);
        }
        try {
            return createUdp(DeviceConfig.of(name, address), progress);
        } catch (PortInUseException e) {
            throw new VerbsException(Errno.EADDRINUSE, e);
        } catch (IllegalArgumentException e) {
            throw new VerbsException(Errno.EINVAL, e);
        }
    }

    /**
     * Makes a device on a simulated network, at its first address, ECN-capable if the configuration says so, doing the
     * configuration's faults to its own packets on top of the network's; everything runs on the caller's thread.
     */
    public EmulatedDevice createSimulated(DeviceConfig config, SimulatedNetwork network) {
        return create(new NicContext(config).transport(SimulatedTransport.attach(network, config)));
    }

    private synchronized EmulatedDevice add(EmulatedDevice device, DeviceConfig config) {
        for (EmulatedDevice d : devices) {
            if (d.name().equals(config.name())) {
                throw new IllegalArgumentException("a device named " + config.name() + " exists already");
            }
        }
        devices.add(device);
        device.listedBy(this);
        return device;
    }

    /** Unlists the device and releases its port and NIC thread. */
    public void remove(EmulatedDevice device) {
        if (devices.remove(device)) {
            rdmaCm.forget(device);
            device.shutdown();
        }
    }
}
