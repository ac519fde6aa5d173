package io.jrxe.examples;

import io.jrxe.verbs.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

/**
 * Three mistakes made on purpose, and what the library answers to each: an RDMA READ with a wrong rkey, a READ
 * from a QP that does not allow remote reads, and a post to a QP that is not yet in RTS. Arguments as
 * {@link RdmaRead}'s: two loopback addresses, or the name of one RDMA device.
 */
public class Mistakes {
    private final TwoEnds ends;
    private final MemorySegment local;
    private final MemorySegment remote;
    private final Pd pdA;
    private final Pd pdB;
    private final Mr localMr;
    private final Mr remoteMr;
    private final Cq cqA;
    private final Cq cqB;

    public static void main(String[] args) throws Exception {
        try (Arena arena = Arena.ofShared(); TwoEnds ends = TwoEnds.open("mistakes", args)) {
            new Mistakes(ends, arena).run();
        } catch (VerbsException e) {
            // No device of that name, or a verb refused where this program makes no mistake on purpose.
            System.err.println("Mistakes: " + e.errno() + ": " + e.getMessage());
            System.exit(2);
        }
    }

    /** A's memory to read into, B's memory to read, each registered, and a CQ on each end. */
    private Mistakes(TwoEnds ends, Arena arena) throws VerbsException {
        this.ends = ends;
        local = arena.allocate(4096, 4096);
        remote = arena.allocate(4096, 4096);
        pdA = ends.a.allocPd();
        pdB = ends.b.allocPd();
        localMr = pdA.regMr(local, Access.LOCAL_WRITE);
        remoteMr = pdB.regMr(remote, Access.REMOTE_READ);
        cqA = ends.a.createCq(16, null);
        cqB = ends.b.createCq(16, null);
    }

    private void run() throws Exception {
        System.out.println("1. a READ with a wrong rkey (one bit flipped)");
        readOverNewQps(Access.REMOTE_READ, remoteMr.rkey() ^ 1);
        System.out.println("   fix: the rkey of the peer's MR, exactly as the peer sent it");

        System.out.println("2. a READ from a QP that allows remote writes only");
        readOverNewQps(Access.REMOTE_WRITE, remoteMr.rkey()); // the memory allows REMOTE_READ, B's QP does not
        System.out.println("   fix: REMOTE_READ in the access flags of the QP that is read from, not only of its MR");

        System.out.println("3. a post to a QP in INIT: it sends from RTS on");
        Qp qp = rcQp(pdA, cqA);
        qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(0));
        try {
            qp.postSend(read(remoteMr.rkey()));
            System.out.println("   posted (not refused)");
        } catch (VerbsException e) {
            System.out.println("   refused: " + e.errno());
            System.out.println("   message: " + e.getMessage());
        }
        System.out.println("   QP state: " + qp.query().state());
        System.out.println("   fix: take the QP through RTR to RTS first (QpConnect does it in one call)");
        qp.close();
    }

    /**
     * A READ of B's memory with {@code rkey}, over two new QPs connected to each other, B's allowing
     * {@code accessOfB}; prints its completion's status, in the enum's name and in ibv_wc_status_str's words.
     */
    private void readOverNewQps(int accessOfB, int rkey) throws Exception {
        Qp qpA = rcQp(pdA, cqA), qpB = rcQp(pdB, cqB);
        ends.connect(qpA, qpB, accessOfB);
        qpA.postSend(read(rkey));
        WorkCompletion[] wc = {new WorkCompletion()};
        if (cqA.poll(wc, 10, TimeUnit.SECONDS) == 0) {
            throw new IllegalStateException("no completion within 10 s");
        }
        System.out.println("   completion: " + wc[0].status() + " (" + wc[0].status().description() + ")");
        qpA.close();
        qpB.close();
    }

    private static Qp rcQp(Pd pd, Cq cq) throws VerbsException {
        return pd.createQp(new QpInitAttributes(QpType.RC, cq, cq, null, new QpCapabilities(16, 16, 1, 1, 0), false));
    }

    /** A signaled READ of 64 bytes of B's memory into A's. */
    private SendWr read(int rkey) {
        SendWr wr = new SendWr(1);
        wr.opcode = WrOpcode.RDMA_READ;
        wr.flags = SendWr.SIGNALED;
        wr.sgl.add(local.address(), 64, localMr.lkey());
        wr.remoteAddr = remote.address();
        wr.rkey = rkey;
        return wr;
    }
}
