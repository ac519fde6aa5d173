package io.jrxe.verbs.emulated;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicExecutor;
import io.jrxe.rnic.Rnic;
import io.jrxe.rnic.engine.DataPath;
import io.jrxe.wire.port.PacketPort;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.sim.SimulatedNetwork;
import io.jrxe.wire.time.NicTime;
import io.jrxe.verbs.Device;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.Provider;
import io.jrxe.verbs.VerbsException;

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
    public EmulatedRdmaCm rdmaCm() {
        return rdmaCm;
    }

    /** Makes a device with no network (the control path only) whose commands run on {@code executor}. */
    public EmulatedDevice create(DeviceConfig config, NicExecutor executor) {
        return add(new EmulatedDevice(new Rnic(config, executor), null, () -> { }), config);
    }

    /** Makes a device attached to a port, its engines running on {@code time}'s thread. */
    public EmulatedDevice create(DeviceConfig config, NicExecutor executor, PacketPort port, NicTime time) {
        Rnic rnic = new Rnic(config, executor);
        return add(new EmulatedDevice(rnic, new DataPath(rnic, port, time), port::close), config);
    }

    /**
     * Makes a device on real UDP: its own NIC thread (an event loop, epoll where available), a
     * socket on its first address, port 4791.
     *
     * @throws io.jrxe.wire.port.udp.PortInUseException when the address cannot be bound (taken, or not local)
     */
    public EmulatedDevice createUdp(DeviceConfig config) throws io.jrxe.wire.port.udp.PortInUseException {
        return createUdp(config, Progress.NIC_THREAD);
    }

    /**
     * Makes a device on real UDP whose engines run as {@code progress} says: on a NIC thread of
     * its own, or on the program's thread when it polls ({@link EmulatedDevice#progress()}).
     *
     * @throws io.jrxe.wire.port.udp.PortInUseException when the address cannot be bound (taken, or not local)
     */
    public EmulatedDevice createUdp(DeviceConfig config, Progress progress) throws io.jrxe.wire.port.udp.PortInUseException {
        if (progress == Progress.INVOKER) {
            return createInvoked(config);
        }
        io.jrxe.wire.port.udp.UdpTransport transport = io.jrxe.wire.port.udp.UdpTransport.best();
        io.netty.channel.EventLoopGroup group = transport.newNicThread(config.name());
        io.netty.channel.EventLoop loop = group.next();
        io.jrxe.wire.port.udp.UdpPort port;
        try {
            port = io.jrxe.wire.port.udp.UdpPort.bind(transport, loop, PeerAddress.of(config.addresses().getFirst()));
            port.rxeFlushIcrc(config.rxeFlushIcrc());
        } catch (io.jrxe.wire.port.udp.PortInUseException e) {
            group.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.MILLISECONDS);
            throw e;
        }
        Rnic rnic = new Rnic(config, new EventLoopExecutor(loop));
        DataPath dataPath = new DataPath(rnic, port, new io.jrxe.wire.port.udp.EventLoopTime(loop));
        EmulatedDevice device = new EmulatedDevice(rnic, dataPath, () -> {
            port.close();
            group.shutdownGracefully(0, 100, java.util.concurrent.TimeUnit.MILLISECONDS).syncUninterruptibly();
        });
        return listAndPublish(device, config);
    }

    private EmulatedDevice createInvoked(DeviceConfig config) throws io.jrxe.wire.port.udp.PortInUseException {
        io.jrxe.wire.port.udp.PolledUdpPort port = io.jrxe.wire.port.udp.PolledUdpPort.bind(
                PeerAddress.of(config.addresses().getFirst()), io.jrxe.wire.port.raw.RawSocketOpener.system());
        port.rxeFlushIcrc(config.rxeFlushIcrc());
        io.jrxe.wire.port.udp.InvokerLoop loop = new io.jrxe.wire.port.udp.InvokerLoop(port, config.name());
        Rnic rnic = new Rnic(config, new InvokerExecutor(loop));
        DataPath dataPath = loop.holding(() -> new DataPath(rnic, port, loop));
        return listAndPublish(new EmulatedDevice(rnic, dataPath, loop, loop::close), config);
    }

    /** Lists a device made on real UDP and publishes its live state (JMX); a device that cannot be is released. */
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
     *                        device, or not an address of this host); EINVAL when the name is blank or taken
     */
    public EmulatedDevice createUdp(String name, InetAddress address) throws VerbsException {
        try {
            return createUdp(DeviceConfig.of(name, address));
        } catch (io.jrxe.wire.port.udp.PortInUseException e) {
            throw new VerbsException(Errno.EADDRINUSE, e);
        } catch (IllegalArgumentException e) {
            throw new VerbsException(Errno.EINVAL, e);
        }
    }

    /** Makes a device on a simulated network, at its first address; everything runs on the caller's thread. */
    public EmulatedDevice createSimulated(DeviceConfig config, SimulatedNetwork network) {
        PacketPort port = network.attach(PeerAddress.of(config.addresses().getFirst()));
        return create(config, NicExecutor.INLINE, port, network.time());
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
