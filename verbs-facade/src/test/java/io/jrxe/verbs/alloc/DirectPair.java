package io.jrxe.verbs.alloc;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicContext;
import io.jrxe.rnic.transport.SimulatedTransport;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.verbs.facade.Verbs;
import io.jrxe.wire.port.PeerAddress;

import java.lang.foreign.Arena;
import java.net.InetAddress;

/** Two emulated devices over a {@link DirectLink}, one RC QP each ({@link DirectSide}), not yet connected. */
final class DirectPair implements AutoCloseable {
    final InetAddress addressA;
    final InetAddress addressB;
    final DirectLink link;
    final DirectSide a;
    final DirectSide b;
    private final Arena arena = Arena.ofConfined();
    private final EmulatedDevice da;
    private final EmulatedDevice db;

    /** @param a and b the devices' IPv4 literals; the devices' names start with {@code name} */
    DirectPair(String name, String a, String b, int interfaceMtu) throws Exception {
        addressA = InetAddress.getByName(a);
        addressB = InetAddress.getByName(b);
        link = new DirectLink(PeerAddress.of(addressA), PeerAddress.of(addressB));
        da = Verbs.emulated().create(new NicContext(DeviceConfig.of(name + "-a" + System.nanoTime(), addressA).withInterfaceMtu(interfaceMtu))
                .transport(SimulatedTransport.of(link.a, link)));
        db = Verbs.emulated().create(new NicContext(DeviceConfig.of(name + "-b" + System.nanoTime(), addressB).withInterfaceMtu(interfaceMtu))
                .transport(SimulatedTransport.of(link.b, link)));
        this.a = new DirectSide(da, arena);
        this.b = new DirectSide(db, arena);
    }

    /** A pair whose QPs are connected to each other. */
    static DirectPair connected(String name, String a, String b, int interfaceMtu) throws Exception {
        DirectPair pair = new DirectPair(name, a, b, interfaceMtu);
        pair.a.connect(pair.b, pair.addressB);
        pair.b.connect(pair.a, pair.addressA);
        return pair;
    }

    @Override
    public void close() {
        Verbs.emulated().remove(da);
        Verbs.emulated().remove(db);
        arena.close();
    }
}
