package io.jrxe.verbs.sim;

import io.jrxe.rnic.DeviceConfig;
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
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.verbs.facade.Verbs;
import io.jrxe.wire.sim.SimulatedNetwork;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Several emulated NICs on one simulated network, each with UD QPs in RTS on one PD, CQ and buffer: the fixture
 * of the multicast tests. A QP's receive buffers are slots of its node's buffer; everything runs on the test's
 * thread in virtual time.
 */
final class UdNodes implements AutoCloseable {
    static final int QKEY = 0x11111111;
    static final int GRH = 40;
    static final int SLOT = 1024;
    private static final AtomicLong NAMES = new AtomicLong();

    final SimulatedNetwork network;
    final List<Node> nodes = new ArrayList<>();
    private final Arena arena = Arena.ofShared();

    /** One NIC and its UD QPs; completions are collected per QP number. */
    final class Node {
        final EmulatedDevice device;
        final Context ctx;
        final Pd pd;
        final Cq cq;
        final MemorySegment memory;
        final Mr mr;
        final List<Qp> qps = new ArrayList<>();
        final List<WorkCompletion> received = new ArrayList<>();
        final List<WorkCompletion> sent = new ArrayList<>();
        private int nextSlot;

        Node(String address, int qpCount) throws Exception {
            device = Verbs.emulated().createSimulated(DeviceConfig.of("mc" + NAMES.incrementAndGet(),
                    InetAddress.getByName(address)).withInterfaceMtu(1500), network);
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
        Qp udQp(int qkey) throws VerbsException {
            Qp qp = pd.createQp(new QpInitAttributes(QpType.UD, cq, cq, null, new QpCapabilities(64, 64, 1, 1, 0), false));
            qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).qkey(qkey));
            qp.modify(new QpAttributes().state(QpState.RTR));
            qp.modify(new QpAttributes().state(QpState.RTS).sqPsn(0));
            return qp;
        }

        /** Posts a receive on the QP into the next free slot; the work request's id is the slot. */
        int postReceive(Qp qp) throws VerbsException {
            int slot = nextSlot++;
            RecvWr r = new RecvWr(1);
            r.wrId = slot;
            r.sgl.add(memory.address() + (long) slot * SLOT, SLOT, mr.lkey());
            qp.postRecv(r);
            return slot;
        }

        /** Sends {@code text} as one datagram to the group, to QP 0xFFFFFF with the Q_Key given. */
        void sendToGroup(Qp from, InetAddress group, String text, int qkey) throws VerbsException {
            send(from, MulticastGid.of(group), MulticastGid.QPN, text, qkey);
        }

        /** Sends {@code text} as one datagram to QP {@code qpn} at the GID {@code dgid}. */
        void send(Qp from, byte[] dgid, int qpn, String text, int qkey) throws VerbsException {
            int slot = nextSlot++;
            byte[] bytes = text.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            MemorySegment.copy(bytes, 0, memory, java.lang.foreign.ValueLayout.JAVA_BYTE, (long) slot * SLOT, bytes.length);
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
        String text(WorkCompletion wc) {
            byte[] b = new byte[wc.byteLen() - GRH];
            MemorySegment.copy(memory, java.lang.foreign.ValueLayout.JAVA_BYTE, wc.wrId() * SLOT + GRH, b, 0, b.length);
            return new String(b, java.nio.charset.StandardCharsets.US_ASCII);
        }

        /** The destination IPv4 address in the GRH area of a receive completion's slot (its last 20 bytes are the header). */
        byte[] grh(WorkCompletion wc) {
            byte[] b = new byte[GRH];
            MemorySegment.copy(memory, java.lang.foreign.ValueLayout.JAVA_BYTE, wc.wrId() * SLOT, b, 0, GRH);
            return b;
        }

        /** The receive completions of one QP. */
        List<WorkCompletion> receivedBy(Qp qp) {
            return received.stream().filter(wc -> wc.qpNum() == qp.qpNum()).toList();
        }

        long counter(Counter c) {
            return device.rnic().counters().get(c);
        }

        void drain() {
            WorkCompletion[] wcs = {new WorkCompletion(), new WorkCompletion(), new WorkCompletion(), new WorkCompletion()};
            int n;
            while ((n = cq.poll(wcs)) > 0) {
                for (int i = 0; i < n; i++) {
                    (wcs[i].opcode() == io.jrxe.verbs.WcOpcode.RECV ? received : sent).add(wcs[i]);
                    wcs[i] = new WorkCompletion();
                }
            }
        }
    }

    UdNodes(long seed) {
        network = new SimulatedNetwork(seed);
    }

    Node add(String address, int qps) throws Exception {
        Node n = new Node(address, qps);
        nodes.add(n);
        return n;
    }

    /** Runs virtual time for a while, collecting every node's completions. */
    void run(long virtualNanos) {
        network.time().runFor(virtualNanos);
        nodes.forEach(Node::drain);
    }

    @Override
    public void close() {
        for (Node n : nodes) {
            Verbs.emulated().remove(n.device);
        }
        arena.close();
    }
}
