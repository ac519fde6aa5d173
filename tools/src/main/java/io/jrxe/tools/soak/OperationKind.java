package io.jrxe.tools.soak;

import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WrOpcode;

/**
 * The operations the soak's mix draws from, each with what the generator, the model and the checker need to
 * know of it. The generator draws {@code MIX[random.nextInt(MIX.length)]}, so the order of the constants is
 * part of what a seed replays: a kind added anywhere changes every seed's run.
 */
enum OperationKind {
    SEND(WrOpcode.SEND, Flow.MESSAGE),
    SEND_WITH_IMM(WrOpcode.SEND_WITH_IMM, Flow.MESSAGE),
    RDMA_WRITE(WrOpcode.RDMA_WRITE, Flow.MESSAGE),
    RDMA_WRITE_WITH_IMM(WrOpcode.RDMA_WRITE_WITH_IMM, Flow.MESSAGE),
    RDMA_READ(WrOpcode.RDMA_READ, Flow.READ),
    ATOMIC_CMP_AND_SWP(WrOpcode.ATOMIC_CMP_AND_SWP, Flow.ATOMIC),
    ATOMIC_FETCH_AND_ADD(WrOpcode.ATOMIC_FETCH_AND_ADD, Flow.ATOMIC);

    /** Every kind, in the order of the draw. */
    static final OperationKind[] MIX = values();

    /** Which way an operation's data goes, which decides its buffers and where its result lands. */
    enum Flow {
        /** The requester's buffer into the responder's (SEND, RDMA WRITE): the result is at the responder. */
        MESSAGE,
        /** The responder's buffer into the requester's: the result is at the requester. */
        READ,
        /** An 8-byte cell at the responder changes; its original value lands at the requester. */
        ATOMIC
    }

    final WrOpcode opcode;
    final Flow flow;

    OperationKind(WrOpcode opcode, Flow flow) {
        this.opcode = opcode;
        this.flow = flow;
    }

    /** A SEND is a message the responder's receive queue takes. */
    boolean isSend() {
        return this == SEND || this == SEND_WITH_IMM;
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
        return flow != Flow.MESSAGE;
    }
}
