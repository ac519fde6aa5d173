package io.jrxe.examples;

import io.jrxe.verbs.*;
import io.jrxe.verbs.facade.Verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.util.concurrent.TimeUnit;

/** One signaled RDMA WRITE from one emulated NIC to another over UDP on loopback. */
public class FirstWrite {
    public static void main(String[] args) throws Exception {
        String[] ip = args.length == 2 ? args : new String[] {"127.0.0.1", "127.0.0.2"};
        try (Arena arena = Arena.ofShared();
             var nicA = Verbs.emulated().createUdp("first-a", InetAddress.getByName(ip[0]));
             var nicB = Verbs.emulated().createUdp("first-b", InetAddress.getByName(ip[1]));
             Context a = nicA.open(); Context b = nicB.open()) {
            nicA.warmUp(); // the data path's code runs once before a peer's timeouts depend on it
            nicB.warmUp();
            MemorySegment src = arena.allocate(4096), dst = arena.allocate(4096);
            src.setString(0, "Hello, RDMA!");
            Pd pdA = a.allocPd(), pdB = b.allocPd();
            Mr mrA = pdA.regMr(src, Access.LOCAL_WRITE);
            Mr mrB = pdB.regMr(dst, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            Cq cqA = a.createCq(16, null), cqB = b.createCq(16, null);
            QpCapabilities caps = new QpCapabilities(16, 16, 1, 1, 0);
            Qp qpA = pdA.createQp(new QpInitAttributes(QpType.RC, cqA, cqA, null, caps, false));
            Qp qpB = pdB.createQp(new QpInitAttributes(QpType.RC, cqB, cqB, null, caps, false));
            // What the two sides would exchange out of band: QPN, first PSN and GID.
            QpPeer peerOfA = new QpPeer(qpB.qpNum(), 200, b.queryGid(1, 1).gid());
            QpPeer peerOfB = new QpPeer(qpA.qpNum(), 100, a.queryGid(1, 1).gid());
            QpConnect.to(peerOfA).localPsn(100).apply(qpA); // RESET -> INIT -> RTR -> RTS, rdma-core's defaults
            QpConnect.to(peerOfB).localPsn(200).apply(qpB);

            SendWr wr = new SendWr(1);
            wr.opcode = WrOpcode.RDMA_WRITE;
            wr.flags = SendWr.SIGNALED;
            wr.sgl.add(src.address(), 13, mrA.lkey());
            wr.remoteAddr = dst.address();
            wr.rkey = mrB.rkey();
            qpA.postSend(wr);

            WorkCompletion[] wc = {new WorkCompletion()};
            if (cqA.poll(wc, 5, TimeUnit.SECONDS) == 0) { // spins briefly, then yields, then parks; never for ever
                throw new IllegalStateException("no completion within 5 s");
            }
            System.out.println("completion: " + wc[0].status() + " " + wc[0].opcode());
            System.out.println("peer memory: " + dst.getString(0));
        }
    }
}
