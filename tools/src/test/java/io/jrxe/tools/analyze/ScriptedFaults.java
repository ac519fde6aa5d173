package io.jrxe.tools.analyze;

import io.jrxe.tools.common.SimulatedPair;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.sim.LinkFaults;
import io.jrxe.wire.sim.PacketFilter;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link CapturedPair} goes through one of each thing `analyze` finds, the network dropping and copying exactly
 * the packets the script names (the pair's fault record says which). The steps, in order, each starting at the
 * PSN in {@link #stepPsns}:
 * <ol>
 *   <li>an RDMA WRITE of three packets whose MIDDLE is lost once: a PSN sequence NAK, a resend from it;</li>
 *   <li>an RDMA READ of four response packets whose second response is lost once: the requester asks again
 *       from it (an implied NAK), the responder replays from there;</li>
 *   <li>a FETCH_ADD whose atomic ACK is lost once: the ACK timeout, the atomic resent, its answer replayed;</li>
 *   <li>a SEND before the responder posts a receive: RNR NAKs until it does, 2 ms later;</li>
 *   <li>a SEND of two packets that the network copies, each packet arriving twice;</li>
 *   <li>an RDMA WRITE with an R_Key the responder never gave out: NAK remote access error, the QP's end.</li>
 * </ol>
 */
final class ScriptedFaults {
    static final int WRITE_BYTES = 3 * 4096;
    static final int READ_BYTES = 4 * 4096;
    static final int SEND_BYTES = 4096 + 100;
    static final long FETCH_ADD_START = 41;

    final List<CapturedPair.Fault> faults;
    final List<Integer> stepPsns = new ArrayList<>();
    /** The FETCH_ADD's original value as the requester received it. */
    final long fetchAddOriginal;

    private Opcode dropOnce;
    private int dropPsn = -1;

    private ScriptedFaults(Path all, Path requester, Path responder) throws VerbsException, IOException {
        try (CapturedPair p = new CapturedPair(all, requester, responder)) {
            p.pair.network.filter(this::drop);
            fetchAddOriginal = steps(p);
            faults = p.faults;
        }
    }

    static ScriptedFaults write(Path all, Path requester, Path responder) throws VerbsException, IOException {
        return new ScriptedFaults(all, requester, responder);
    }

    private PacketFilter.Verdict drop(PeerAddress from, PeerAddress to, byte[] roce) {
        BthFlyweight bth = new BthFlyweight().wrap(ByteBuffer.wrap(roce), 0);
        if (dropOnce != null && bth.opcode() == dropOnce.code() && (dropPsn < 0 || bth.psn() == dropPsn)) {
            dropOnce = null;
            return PacketFilter.Verdict.DROP;
        }
        return PacketFilter.Verdict.PASS;
    }

    private long steps(CapturedPair p) throws VerbsException {
        int psn = SimulatedPair.PSN_A;
        stepPsns.add(psn);
        dropOnce = Opcode.RC_RDMA_WRITE_MIDDLE;
        p.complete(p.a, p.rdma(WrOpcode.RDMA_WRITE, 0, WRITE_BYTES, p.b.mr.rkey()), WcStatus.SUCCESS);
        psn += 3;

        stepPsns.add(psn);
        dropOnce = Opcode.RC_RDMA_READ_RESPONSE_MIDDLE;
        dropPsn = psn + 1;
        p.complete(p.a, p.rdma(WrOpcode.RDMA_READ, 65_536, READ_BYTES, p.b.mr.rkey()), WcStatus.SUCCESS);
        dropPsn = -1;
        psn += 4;

        stepPsns.add(psn);
        dropOnce = Opcode.RC_ATOMIC_ACKNOWLEDGE;
        p.b.memory.set(ValueLayout.JAVA_LONG, 262_144, FETCH_ADD_START);
        SendWr atomic = p.rdma(WrOpcode.ATOMIC_FETCH_AND_ADD, 131_072, 8, p.b.mr.rkey());
        atomic.remoteAddr = p.b.at(262_144);
        atomic.compareAdd = 1;
        p.complete(p.a, atomic, WcStatus.SUCCESS);
        long original = p.a.memory.get(ValueLayout.JAVA_LONG, 131_072);
        psn += 1;

        stepPsns.add(psn);
        p.a.qp.postSend(p.send(400_000, 100));
        p.pair.time.runUntil(() -> false, 2_000_000);
        p.postRecv(200_000, 4096);
        p.complete(p.a, null, WcStatus.SUCCESS);
        p.complete(p.b, null, WcStatus.SUCCESS);
        psn += 1;

        stepPsns.add(psn);
        p.postRecv(300_000, 8192);
        p.pair.network.faults(p.addressA(), p.addressB(), LinkFaults.NONE.withDuplicate(1));
        p.complete(p.a, p.send(400_000, SEND_BYTES), WcStatus.SUCCESS);
        p.pair.network.faults(p.addressA(), p.addressB(), LinkFaults.NONE);
        p.complete(p.b, null, WcStatus.SUCCESS);
        psn += 2;

        stepPsns.add(psn);
        p.complete(p.a, p.rdma(WrOpcode.RDMA_WRITE, 0, 64, p.b.mr.rkey() + 0x100), WcStatus.REM_ACCESS_ERR);
        p.pair.settle();
        return original;
    }
}
