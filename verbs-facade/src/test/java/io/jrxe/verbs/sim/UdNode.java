package io.jrxe.verbs.sim;

import io.jrxe.rnic.device.Counter;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.Ah;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.MulticastGid;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.emulated.EmulatedDevice;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One jrxe NIC with UD QPs in RTS on one PD, CQ and buffer, for the multicast tests on the simulated network and
 * on real sockets: receive buffers are slots of the buffer, completions are collected as they are polled.
 */
public final class UdNode {
    public static final int QKEY = 0x11111111;
    public static final int GRH = 40;
    static final int SLOT = 1024;

    public final EmulatedDevice device;
    public final Context ctx;
    public final Pd pd;
    public final Cq cq;
    public final MemorySegment memory;
    public final Mr mr;
    public final List<Qp> qps = new ArrayList<>();
    public final List<WorkCompletion> received = new ArrayList<>();
    public final List<WorkCompletion> sent = new ArrayList<>();
    private int nextSlot;

    /** The device's context, a PD, a CQ and a buffer of 256 slots (in {@code arena}), and {@code qpCount} UD QPs. */
    public UdNode(EmulatedDevice device, int qpCount, Arena arena) throws VerbsException {
        this.device = device;
        ctx = device.open();
        pd = ctx.allocPd();
        cq = ctx.createCq(1024, null);
        memory = arena.allocate(SLOT * 256L, 4096);
        mr = pd.regMr(memory, Access.LOCAL_WRITE);
        for (int i = 0; i < qpCount; i++) {
            qps.add(udQp(QKEY));
        }
    }

    /** A UD QP in RTS with this Q_Key. */
    public Qp udQp(int qkey) throws VerbsException {
        Qp qp = pd.createQp(new QpInitAttributes(QpType.UD, cq, cq, null, new QpCapabilities(64, 64, 1, 1, 0), false));
        qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).qkey(qkey));
        qp.modify(new QpAttributes().state(QpState.RTR));
        qp.modify(new QpAttributes().state(QpState.RTS).sqPsn(0));
        return qp;
    }

    /** Posts a receive on the QP into the next free slot; the work request's id is the slot. */
    public int postReceive(Qp qp) throws VerbsException {
        int slot = nextSlot++;
        RecvWr r = new RecvWr(1);
        r.wrId = slot;
        r.sgl.add(memory.address() + (long) slot * SLOT, SLOT, mr.lkey());
        qp.postRecv(r);
        return slot;
    }

    /** Sends {@code text} as one datagram to the group, to QP 0xFFFFFF with the Q_Key given. */
    public void sendToGroup(Qp from, InetAddress group, String text, int qkey) throws VerbsException {
        send(from, MulticastGid.of(group), MulticastGid.QPN, text, qkey);
    }

    /** Sends {@code text} as one datagram to QP {@code qpn} at the GID {@code dgid}. */
    public void send(Qp from, byte[] dgid, int qpn, String text, int qkey) throws VerbsException {
        int slot = nextSlot++;
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        MemorySegment.copy(bytes, 0, memory, ValueLayout.JAVA_BYTE, (long) slot * SLOT, bytes.length);
        Ah ah = pd.createAh(new AddressVector(dgid, 1, 64, 0, 0, 0, 1));
        SendWr w = new SendWr(1);
        w.opcode = WrOpcode.SEND;
        w.flags = SendWr.SIGNALED;
        w.sgl.add(memory.address() + (long) slot * SLOT, bytes.length, mr.lkey());
        w.ahHandle = ah.handle();
        w.remoteQpn = qpn;
        w.remoteQkey = qkey;
        from.postSend(w);
    }

    /** The text of the datagram in a receive completion's slot (behind the GRH area). */
    public String text(WorkCompletion wc) {
        byte[] b = new byte[wc.byteLen() - GRH];
        MemorySegment.copy(memory, ValueLayout.JAVA_BYTE, wc.wrId() * SLOT + GRH, b, 0, b.length);
        return new String(b, StandardCharsets.US_ASCII);
    }

    /** The GRH area of a receive completion's slot: the IP header the datagram came in (IPv4 in its last 20 bytes). */
    public byte[] grh(WorkCompletion wc) {
        byte[] b = new byte[GRH];
        MemorySegment.copy(memory, ValueLayout.JAVA_BYTE, wc.wrId() * SLOT, b, 0, GRH);
        return b;
    }

    /** The receive completions of one QP. */
    public List<WorkCompletion> receivedBy(Qp qp) {
        return received.stream().filter(wc -> wc.qpNum() == qp.qpNum()).toList();
    }

    public long counter(Counter c) {
        return device.nic().resources().counters().get(c);
    }

    /**
     * Polls the CQ (which runs an invoked device's NIC) until {@code done} holds or {@code millis} pass; whether it
     * held. Real time, for devices on sockets.
     */
    public boolean pollUntil(java.util.function.BooleanSupplier done, long millis) {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        do {
            drain();
            if (done.getAsBoolean()) {
                return true;
            }
            Thread.onSpinWait();
        } while (System.nanoTime() < deadline);
        return false;
    }

    public void drain() {
        WorkCompletion[] wcs = {new WorkCompletion(), new WorkCompletion(), new WorkCompletion(), new WorkCompletion()};
        int n;
        while ((n = cq.poll(wcs)) > 0) {
            for (int i = 0; i < n; i++) {
                (wcs[i].opcode() == WcOpcode.RECV ? received : sent).add(wcs[i]);
                wcs[i] = new WorkCompletion();
            }
        }
    }
}
