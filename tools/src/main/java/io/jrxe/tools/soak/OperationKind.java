package io.jrxe.tools.soak;

import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WrOpcode;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The operations the soak's mix draws from, each with what the generator, the model and the checker need to
 * know of it. The generator draws {@code mix[random.nextInt(mix.length)]}, so the order of {@link #MIX} is
 * part of what a seed replays: a kind added to it changes every seed's run. Kinds that came later are drawn
 * only when asked for ({@code --with}), after the others.
 */
enum OperationKind {
    SEND(WrOpcode.SEND, Flow.MESSAGE),
    SEND_WITH_IMM(WrOpcode.SEND_WITH_IMM, Flow.MESSAGE),
    RDMA_WRITE(WrOpcode.RDMA_WRITE, Flow.MESSAGE),
    RDMA_WRITE_WITH_IMM(WrOpcode.RDMA_WRITE_WITH_IMM, Flow.MESSAGE),
    RDMA_READ(WrOpcode.RDMA_READ, Flow.READ),
    ATOMIC_CMP_AND_SWP(WrOpcode.ATOMIC_CMP_AND_SWP, Flow.ATOMIC),
    ATOMIC_FETCH_AND_ADD(WrOpcode.ATOMIC_FETCH_AND_ADD, Flow.ATOMIC),
    /** {@code --with atomic-write}. */
    ATOMIC_WRITE(WrOpcode.ATOMIC_WRITE, Flow.ATOMIC_WRITE),
    /** {@code --with flush}. */
    FLUSH(WrOpcode.FLUSH, Flow.FLUSH),
    /** {@code --with mw}: an RDMA WRITE through the responder's memory window. */
    MW_WRITE(WrOpcode.RDMA_WRITE, Flow.MESSAGE),
    /** {@code --with mw}: an RDMA READ through the responder's memory window. */
    MW_READ(WrOpcode.RDMA_READ, Flow.READ),
    /**
     * {@code --with mw}: the responder's window invalidated by a SEND_WITH_INV that names its R_Key (a SEND whose
     * receive completion must say so). Drawn as "a window step": {@link MemoryWindows} makes it one of the two
     * below instead, or a plain SEND, when the windows' states call for it.
     */
    MW_INVALIDATE(WrOpcode.SEND_WITH_INV, Flow.MESSAGE),
    /** The requester binds its own window (BIND_MW): a local operation, no byte moves. */
    MW_BIND(WrOpcode.BIND_MW, Flow.LOCAL),
    /** The requester invalidates its own window (LOCAL_INV): a local operation, no byte moves. */
    MW_LOCAL_INV(WrOpcode.LOCAL_INV, Flow.LOCAL);

    /** The kinds every run draws from, in the order of the draw. */
    static final OperationKind[] MIX = {SEND, SEND_WITH_IMM, RDMA_WRITE, RDMA_WRITE_WITH_IMM, RDMA_READ,
                                        ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD};

    /** What a UC QP can do: no READs, no atomics, no FLUSH. */
    static final OperationKind[] UC_MIX = {SEND, SEND_WITH_IMM, RDMA_WRITE, RDMA_WRITE_WITH_IMM};

    /** What a UD QP can do: SENDs. */
    static final OperationKind[] UD_MIX = {SEND, SEND_WITH_IMM};

    /** {@link #MIX}, then the kinds {@code extras} adds, in the order of {@link SoakExtra}. */
    static OperationKind[] mix(Set<SoakExtra> extras) {
        List<OperationKind> kinds = new ArrayList<>(List.of(MIX));
        for (SoakExtra extra : SoakExtra.values()) {
            if (extras.contains(extra)) {
                kinds.addAll(List.of(extra.kinds));
            }
        }
        return kinds.toArray(OperationKind[]::new);
    }

    /** Which way an operation's data goes, which decides its buffers and where its result lands. */
    enum Flow {
        /** The requester's buffer into the responder's (SEND, RDMA WRITE): the result is at the responder. */
        MESSAGE,
        /** The responder's buffer into the requester's: the result is at the requester. */
        READ,
        /** An 8-byte cell at the responder changes; its original value lands at the requester. */
        ATOMIC,
        /** 8 bytes of the requester's buffer replace a cell at the responder; nothing comes back. */
        ATOMIC_WRITE,
        /** A range of the responder's memory is made visible (it is already): no byte moves anywhere. */
        FLUSH,
        /** Runs at the requester alone (a window bound or invalidated): no byte moves, no packet goes. */
        LOCAL
    }

    final WrOpcode opcode;
    final Flow flow;

    OperationKind(WrOpcode opcode, Flow flow) {
        this.opcode = opcode;
        this.flow = flow;
    }

    /** A SEND is a message the responder's receive queue takes. */
    boolean isSend() {
        return this == SEND || this == SEND_WITH_IMM || this == MW_INVALIDATE;
    }

    /** It takes a receive WR at the responder: a SEND, or a WRITE whose immediate needs a completion. */
    boolean consumesReceive() {
        return isSend() || this == RDMA_WRITE_WITH_IMM;
    }

    boolean carriesImmediate() {
        return this == SEND_WITH_IMM || this == RDMA_WRITE_WITH_IMM;
    }

    /** The opcode of the responder's receive completion (for kinds that consume a receive). */
    WcOpcode receiveCompletion() {
        return this == RDMA_WRITE_WITH_IMM ? WcOpcode.RECV_RDMA_WITH_IMM : WcOpcode.RECV;
    }

    /** Where the operation's result is when it has completed: in the requester's memory, else the responder's. */
    boolean resultAtRequester() {
        return flow == Flow.READ || flow == Flow.ATOMIC;
    }

    /** It writes a slot of the responder: after a failure, that slot may hold part of it. */
    boolean writesResponderSlot() {
        return flow == Flow.MESSAGE;
    }

    /** It changes an atomic cell: after a failure, nobody knows whether it ran. */
    boolean writesCell() {
        return flow == Flow.ATOMIC || flow == Flow.ATOMIC_WRITE;
    }

    /**
     * Whether the send completion's byte_len is checked: the verbs define it for receives only, so the soak pins
     * the values jrxe has always given (as rxe does) for the first kinds, and leaves the later ones' alone.
     */
    boolean sendByteLenChecked() {
        return flow != Flow.ATOMIC_WRITE && flow != Flow.FLUSH && flow != Flow.LOCAL;
    }
}
