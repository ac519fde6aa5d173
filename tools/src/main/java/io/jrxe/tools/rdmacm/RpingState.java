package io.jrxe.tools.rdmacm;

/**
 * rping's test states, in its order: the CM and completion handlers set them and wake the main thread, which
 * checks that the state is the one it waits for. Its messages print the number ("wait for RDMA_READ_ADV state
 * 10" when the client disconnected), so {@link #number()} is rping's.
 */
enum RpingState {
    IDLE,
    CONNECT_REQUEST,
    ADDR_RESOLVED,
    ROUTE_RESOLVED,
    CONNECTED,
    RDMA_READ_ADV,
    RDMA_READ_COMPLETE,
    RDMA_WRITE_ADV,
    RDMA_WRITE_COMPLETE,
    DISCONNECTED,
    ERROR;

    /** rping's number for the state: IDLE is 1, DISCONNECTED 10, ERROR 11. */
    int number() {
        return ordinal() + 1;
    }
}
