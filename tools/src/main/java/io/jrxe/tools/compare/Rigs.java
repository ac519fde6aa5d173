package io.jrxe.tools.compare;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.Mtu;
import io.jrxe.tools.UserError;
import io.jrxe.tools.common.DefaultGid;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Device;
import io.jrxe.verbs.facade.Verbs;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.wire.port.udp.PortInUseException;

import java.lang.foreign.Arena;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The setups a comparison is made of: two jrxe NICs on two addresses (as the demo has them), one jrxe NIC whose two
 * QPs talk to each other through its own GID, and one kernel device (rxe0) whose two QPs do the same (rxe hands such
 * packets straight back inside the kernel).
 */
final class Rigs {
    private Rigs() {
    }

    /** Two jrxe NICs, A's and B's, each on its address; their packets through jrxe's tap. */
    static Rig jrxePair(String nameA, InetAddress addressA, String nameB, InetAddress addressB) {
        List<EmulatedDevice> made = new ArrayList<>();
        Arena arena = Arena.ofShared();
        try {
            EmulatedDevice devA = create(nameA, addressA, made);
            EmulatedDevice devB = create(nameB, addressB, made);
            Context ctxA = devA.open();
            Context ctxB = devB.open();
            Node a = new Node("A", ctxA, defaultGid(devA, ctxA), arena);
            Node b = new Node("B", ctxB, defaultGid(devB, ctxB), arena);
            Mtu mtu = smaller(devA.nic().resources().port().activeMtu(), devB.nic().resources().port().activeMtu());
            return new Rig("jrxe", "jrxe: " + nameA + " at " + addressA.getHostAddress() + " (A) and " + nameB + " at "
                    + addressB.getHostAddress() + " (B)", a, b, List.of(ctxA, ctxB), mtu, PacketSource.tap(made), arena,
                    () -> made.forEach(Verbs.emulated()::remove));
        } catch (VerbsException | RuntimeException e) {
            arena.close();
            made.forEach(Verbs.emulated()::remove);
            throw failure("jrxe", e);
        }
    }

    /** One jrxe NIC with A and B on it, like a kernel device's two QPs; its packets through jrxe's tap. */
    static Rig jrxeLoopback(String name, InetAddress address) {
        List<EmulatedDevice> made = new ArrayList<>();
        Arena arena = Arena.ofShared();
        try {
            EmulatedDevice dev = create(name, address, made);
            Context ctx = dev.open();
            GidEntry gid = defaultGid(dev, ctx);
            Node a = new Node("A", ctx, gid, arena);
            Node b = new Node("B", ctx, gid, arena);
            return new Rig(name, "jrxe: " + name + " at " + address.getHostAddress() + ", A and B on it", a, b,
                    List.of(ctx), dev.nic().resources().port().activeMtu(), PacketSource.tap(made), arena,
                    () -> made.forEach(Verbs.emulated()::remove));
        } catch (VerbsException | RuntimeException e) {
            arena.close();
            made.forEach(Verbs.emulated()::remove);
            throw failure(name, e);
        }
    }

    /** A kernel device with A and B on it, reaching each other at its RoCE v2 GID; its packets from {@code packets}. */
    static Rig kernel(Device device, PacketSource packets) {
        Arena arena = Arena.ofShared();
        Context ctx = null;
        try {
            ctx = device.open();
            GidEntry gid = DefaultGid.of(ctx.gidTable(1)).orElseThrow(() -> new UserError(device.name()
                    + " has no RoCE v2 GID on port 1 (jrxe devinfo -v -d " + device.name() + " lists its GIDs)"));
            Node a = new Node("A", ctx, gid, arena);
            Node b = new Node("B", ctx, gid, arena);
            return new Rig(device.name(), device.name() + " (the kernel's, through libibverbs): A and B on it, at GID "
                    + io.jrxe.tools.common.Gids.ntop(gid.gid()) + " (index " + gid.index() + ")", a, b, List.of(ctx),
                    ctx.queryPort(1).activeMtu(), packets, arena, () -> { });
        } catch (VerbsException | RuntimeException e) {
            packets.close();
            // Closing the context deregisters what it registered; only then may the memory go (the kernel device
            // writes to registered pages until they are deregistered).
            if (ctx != null) {
                try {
                    ctx.close();
                } catch (VerbsException ignored) {
                    // failing already
                }
            }
            arena.close();
            throw failure(device.name(), e);
        }
    }

    private static EmulatedDevice create(String name, InetAddress address, List<EmulatedDevice> made) {
        try {
            EmulatedDevice d = Verbs.emulated().createUdp(DeviceConfig.of(name, address));
            made.add(d);
            d.warmUp();
            return d;
        } catch (PortInUseException e) {
            boolean kernelRxe = Files.isDirectory(Path.of("/sys/module/rdma_rxe"));
            throw new UserError("cannot open the jrxe NIC " + name + " on " + address.getHostAddress() + ": " + e.getMessage()
                    + (kernelRxe ? " (rdma_rxe is loaded: the kernel holds UDP port 4791 of every address; run jrxe compare "
                    + "in a network namespace of its own: unshare -n sh -c 'ip link set lo up; ./jrxe compare ...')" : ""), e);
        }
    }

    private static GidEntry defaultGid(EmulatedDevice dev, Context ctx) throws VerbsException {
        return ctx.queryGid(1, dev.nic().resources().port().defaultGidIndex());
    }

    private static Mtu smaller(Mtu x, Mtu y) {
        return x.bytes() <= y.bytes() ? x : y;
    }

    private static RuntimeException failure(String setup, Exception e) {
        if (e instanceof UserError u) {
            return u;
        }
        return new UserError("setting up " + setup + ": " + e.getMessage(), e);
    }
}
