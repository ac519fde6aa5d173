package io.jrxe.examples;

import io.jrxe.verbs.*;
import io.jrxe.verbs.facade.Verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;

/** Two UD QPs on two emulated NICs: one datagram, addressed through an address handle. */
public class UdExample {
    static final int QKEY = 0x11111111;
    /** A UD receive buffer starts with 40 bytes for the packet's GRH; the message follows. */
    static final int GRH = 40;

    public static void main(String[] args) throws Exception {
        String[] ip = args.length == 2 ? args : new String[] {"127.0.0.1", "127.0.0.2"};
        try (Arena arena = Arena.ofShared();
             var nicA = Verbs.emulated().createUdp("ud-a", InetAddress.getByName(ip[0]));
             var nicB = Verbs.emulated().createUdp("ud-b", InetAddress.getByName(ip[1]));
             Context a = nicA.open(); Context b = nicB.open()) {
            MemorySegment out = arena.allocate(4096), in = arena.allocate(4096);
            out.setString(0, "a datagram for QP B");
            Pd pdA = a.allocPd(), pdB = b.allocPd();
            Mr mrA = pdA.regMr(out, Access.LOCAL_WRITE);
            Mr mrB = pdB.regMr(in, Access.LOCAL_WRITE);
            Cq cqA = a.createCq(16, null), cqB = b.createCq(16, null);
            QpCapabilities caps = new QpCapabilities(16, 16, 1, 1, 0);
            Qp qpA = pdA.createQp(new QpInitAttributes(QpType.UD, cqA, cqA, null, caps, false));
            Qp qpB = pdB.createQp(new QpInitAttributes(QpType.UD, cqB, cqB, null, caps, false));
            QpConnect.datagram(QKEY).apply(qpA); // a UD QP needs only its Q_Key
            QpConnect.datagram(QKEY).apply(qpB);

            RecvWr recv = new RecvWr(1);
            recv.sgl.add(in.address(), GRH + 1024, mrB.lkey());
            qpB.postRecv(recv);

            // A UD QP has no fixed peer: each send names its destination by an address handle.
            Ah toB = pdA.createAh(AddressVector.to(b.queryGid(1, 1).gid(), 1));
            SendWr send = new SendWr(1);
            send.opcode = WrOpcode.SEND;
            send.flags = SendWr.SIGNALED;
            send.sgl.add(out.address(), 20, mrA.lkey());
            send.ahHandle = toB.handle();
            send.remoteQpn = qpB.qpNum();
            send.remoteQkey = QKEY;
            qpA.postSend(send);

            WorkCompletion sent = await(cqA);
            WorkCompletion received = await(cqB);
            System.out.println("sent: " + sent.status() + " " + sent.opcode());
            System.out.println("received: " + received.status() + " " + received.opcode() + ", "
                    + (received.byteLen() - GRH) + " bytes from QP A: " + (received.srcQp() == qpA.qpNum()));
            System.out.println("message: " + in.getString(GRH));
        }
    }

    /** The CQ's next completion; a datagram is never resent, so a lost one ends the wait after 10 s. */
    static WorkCompletion await(Cq cq) {
        WorkCompletion[] wc = {new WorkCompletion()};
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (cq.poll(wc) == 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no completion within 10 s");
            }
            Thread.onSpinWait();
        }
        return wc[0];
    }
}
