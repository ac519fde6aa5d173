package io.jrxe.rnic.engine;

import io.jrxe.wire.opcode.Operation;

/**
 * The message a responder is in the middle of: after a FIRST packet, only MIDDLE and LAST
 * packets of the same operation may follow (IBTA 9.8.3's opcode sequence check).
 */
enum MessageInProgress {
    NONE,
    SEND,
    RDMA_WRITE;

    /** The message a FIRST packet of this operation opens. */
    static MessageInProgress openedBy(Operation operation) {
        return switch (operation) {
            case SEND -> SEND;
            case RDMA_WRITE -> RDMA_WRITE;
            default -> NONE;
        };
    }

    boolean continuedBy(Operation operation) {
        return this != NONE && this == openedBy(operation);
    }
}
