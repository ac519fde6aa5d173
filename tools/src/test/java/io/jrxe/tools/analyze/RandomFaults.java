package io.jrxe.tools.analyze;

import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.sim.LinkFaults;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A {@link CapturedPair} on a network that loses, copies and holds back packets at random in both directions
 * (the network's seed is the pair's, so every run is the same). Each round the requester posts four operations
 * at once (an RDMA WRITE of three packets, an RDMA READ of four response packets, a SEND of two packets and a
 * FETCH_ADD) and waits for their completions, which must all succeed.
 */
final class RandomFaults {
    static final LinkFaults FAULTS = LinkFaults.NONE.withLoss(0.04).withDuplicate(0.03).withReorder(0.04, 40_000);

    final List<CapturedPair.Fault> faults;
    final long operations;

    private RandomFaults(Path all, Path requester, Path responder, int rounds) throws VerbsException, IOException {
        try (CapturedPair p = new CapturedPair(all, requester, responder)) {
            p.pair.network.faults(p.addressA(), p.addressB(), FAULTS);
            p.pair.network.faults(p.addressB(), p.addressA(), FAULTS);
            for (int round = 0; round < rounds; round++) {
                p.postRecv(300_000, 8192);
                SendWr write = p.rdma(WrOpcode.RDMA_WRITE, 0, 3 * 4096, p.b.mr.rkey());
                SendWr read = p.rdma(WrOpcode.RDMA_READ, 65_536, 4 * 4096, p.b.mr.rkey());
                SendWr send = p.send(400_000, 4096 + 512);
                SendWr atomic = p.rdma(WrOpcode.ATOMIC_FETCH_AND_ADD, 131_072, 8, p.b.mr.rkey());
                atomic.remoteAddr = p.b.at(262_144);
                atomic.compareAdd = 1;
                p.a.qp.postSend(write.next(read.next(send.next(atomic))));
                for (int i = 0; i < 4; i++) {
                    p.complete(p.a, null, WcStatus.SUCCESS);
                }
                p.complete(p.b, null, WcStatus.SUCCESS);
            }
            p.pair.settle();
            faults = p.faults;
            operations = 4L * rounds;
        }
    }

    static RandomFaults write(Path all, Path requester, Path responder, int rounds) throws VerbsException, IOException {
        return new RandomFaults(all, requester, responder, rounds);
    }
}
