package io.jrxe.wire.opcode;

/** The kind of work a packet belongs to; engines dispatch on this rather than on raw opcodes. */
public enum Operation {
    SEND,
    RDMA_WRITE,
    RDMA_READ_REQUEST,
    RDMA_READ_RESPONSE,
    ACKNOWLEDGE,
    ATOMIC_ACKNOWLEDGE,
    COMPARE_SWAP,
    FETCH_ADD,
    FLUSH,
    ATOMIC_WRITE,
    CNP
}
