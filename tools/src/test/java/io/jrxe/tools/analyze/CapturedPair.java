package io.jrxe.tools.analyze;

import io.jrxe.tools.common.SimulatedPair;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.capture.CaptureTap;
import io.jrxe.wire.capture.PcapngWriter;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.port.PacketTap;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.sim.FaultListener;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Two jrxe NICs on the simulated network (jrxe0 at 10.0.0.1, the requester; jrxe1 at 10.0.0.2, the responder;
 * path MTU 4096, 1 MiB of registered memory each), three captures of what they send and receive (both ports,
 * each its own interface, {@code all}; jrxe0's port alone, {@code requester}; jrxe1's alone, {@code responder}),
 * and the network's own record of every fault it puts on a packet.
 */
final class CapturedPair implements AutoCloseable {
    static final String A = "10.0.0.1";
    static final String B = "10.0.0.2";

    /** One fault the network put on a packet. */
    record Fault(FaultListener.Fault kind, String from, Opcode opcode, int psn) {
    }

    final SimulatedPair pair;
    final SimulatedPair.Nic a;
    final SimulatedPair.Nic b;
    final List<Fault> faults = new ArrayList<>();
    private final CaptureTap all;
    private final CaptureTap onlyA;
    private final CaptureTap onlyB;

    CapturedPair(Path allFile, Path requesterFile, Path responderFile) throws VerbsException, IOException {
        pair = SimulatedPair.open(SimulatedPair.Settings.defaults().bufferBytes(1 << 20));
        a = pair.a;
        b = pair.b;
        long now = pair.time.nanoTime();
        all = new CaptureTap(new PcapngWriter(allFile), 1_000_000, 256L << 20, 0, now);
        onlyA = new CaptureTap(new PcapngWriter(requesterFile), 1_000_000, 256L << 20, 0, now);
        onlyB = new CaptureTap(new PcapngWriter(responderFile), 1_000_000, 256L << 20, 0, now);
        a.device.nic().port().tap(PacketTap.both(all.forPort("jrxe0"), onlyA.forPort("jrxe0")));
        b.device.nic().port().tap(PacketTap.both(all.forPort("jrxe1"), onlyB.forPort("jrxe1")));
        pair.network.listen((fault, from, to, roce) -> {
            BthFlyweight bth = new BthFlyweight().wrap(ByteBuffer.wrap(roce), 0);
            faults.add(new Fault(fault, from.address().getHostAddress(), Opcode.of(bth.opcode()), bth.psn()));
        });
    }

    PeerAddress addressA() {
        return a.device.nic().port().localAddress();
    }

    PeerAddress addressB() {
        return b.device.nic().port().localAddress();
    }

    /** An RDMA WRITE, READ or atomic of {@code length} bytes between the same offset of both buffers. */
    SendWr rdma(WrOpcode opcode, long offset, int length, int rkey) {
        SendWr wr = new SendWr(1);
        wr.wrId = offset;
        wr.opcode = opcode;
        wr.flags = SendWr.SIGNALED;
        wr.sgl.add(a.at(offset), length, a.mr.lkey());
        wr.remoteAddr = b.at(offset);
        wr.rkey = rkey;
        return wr;
    }

    SendWr send(long offset, int length) {
        SendWr wr = new SendWr(1);
        wr.wrId = offset;
        wr.opcode = WrOpcode.SEND;
        wr.flags = SendWr.SIGNALED;
        wr.sgl.add(a.at(offset), length, a.mr.lkey());
        return wr;
    }

    void postRecv(long offset, int length) throws VerbsException {
        RecvWr wr = new RecvWr(1);
        wr.sgl.add(b.at(offset), length, b.mr.lkey());
        b.qp.postRecv(wr);
    }

    /** Posts {@code wr} on jrxe0 (unless null) and runs until {@code nic}'s completion, which must have {@code status}. */
    void complete(SimulatedPair.Nic nic, SendWr wr, WcStatus status) throws VerbsException {
        if (wr != null) {
            a.qp.postSend(wr);
        }
        WorkCompletion wc = pair.pollOne(nic);
        if (wc == null || wc.status() != status) {
            throw new AssertionError("expected " + status + " on " + nic.name + ", got " + wc + " (" + pair.network + ")");
        }
    }

    /** Ends the captures (their files are complete after this) and the NICs. */
    @Override
    public void close() throws IOException {
        try {
            all.close();
            onlyA.close();
            onlyB.close();
        } finally {
            pair.close();
        }
    }
}
