package io.jrxe.examples;

import io.jrxe.verbs.*;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.verbs.facade.Verbs;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * The two ends of the examples' RC connections, A and B. With no arguments, or two addresses, they are two jrxe NICs
 * on loopback; with one argument, a device's name (rxe0), they are two QPs of that one device, which reach each
 * other through it as two hosts would.
 */
final class TwoEnds implements AutoCloseable {
    final Context a;
    final Context b;
    /** The NICs made for the two ends (none on a kernel device), and the contexts opened on them or it. */
    private final List<EmulatedDevice> nics;
    private final List<Context> contexts;

    private TwoEnds(Context a, Context b, List<EmulatedDevice> nics, List<Context> contexts) {
        this.a = a;
        this.b = b;
        this.nics = nics;
        this.contexts = contexts;
    }

    static TwoEnds open(String program, String[] args) throws VerbsException, UnknownHostException {
        if (args.length == 1) {
            Context device = Verbs.device(args[0]).open();
            return new TwoEnds(device, device, List.of(), List.of(device));
        }
        String[] ip = args.length == 2 ? args : new String[] {"127.0.0.1", "127.0.0.2"};
        List<EmulatedDevice> nics = new ArrayList<>();
        try {
            nics.add(Verbs.emulated().createUdp(program + "-a", InetAddress.getByName(ip[0])));
            nics.add(Verbs.emulated().createUdp(program + "-b", InetAddress.getByName(ip[1])));
            for (EmulatedDevice nic : nics) {
                nic.warmUp(); // the data path's code runs once before a peer's timeouts depend on it
            }
            Context a = nics.get(0).open(), b = nics.get(1).open();
            return new TwoEnds(a, b, nics, List.of(b, a));
        } catch (VerbsException | UnknownHostException e) {
            nics.reversed().forEach(EmulatedDevice::close);
            throw e;
        }
    }

    /** A's QP to RTS towards B's, and B's towards A's; B's QP allows the remote access {@code accessOfB}. */
    void connect(Qp qpA, Qp qpB, int accessOfB) throws VerbsException {
        GidEntry gidA = roceV2Gid(a);
        GidEntry gidB = roceV2Gid(b);
        QpConnect.to(new QpPeer(qpB.qpNum(), 200, gidB.gid())).sgidIndex(gidA.index()).localPsn(100).apply(qpA);
        QpConnect.to(new QpPeer(qpA.qpNum(), 100, gidA.gid())).sgidIndex(gidB.index()).localPsn(200)
                .accessFlags(accessOfB).apply(qpB);
    }

    /** The GID to give a peer: the port's first RoCE v2 GID that holds an IPv4 address (index 1 on a jrxe NIC). */
    private static GidEntry roceV2Gid(Context ctx) throws VerbsException {
        for (GidEntry e : ctx.gidTable(1)) {
            if (e.type() == GidType.ROCE_V2 && GidEntry.isIpv4Mapped(e.gid())) {
                return e;
            }
        }
        throw new IllegalStateException(ctx.device().name() + " has no RoCE v2 GID with an IPv4 address on port 1");
    }

    /** Closes the contexts, then the NICs, which releases their sockets and threads. */
    @Override
    public void close() throws VerbsException {
        try {
            for (Context c : contexts) {
                c.close();
            }
        } finally {
            nics.reversed().forEach(EmulatedDevice::close);
        }
    }
}
