package io.jrxe.tools.compare;

import io.jrxe.verbs.WrOpcode;

import java.util.List;

/**
 * Work that goes wrong, and what each setup does about it: a wrong rkey on a READ, a WRITE past the end of B's
 * memory, a SEND longer than B's receive, a SEND with no receive posted (RNR NAKs until the retries run out), and a
 * SEND to a QP that was destroyed (no answer at all, retransmission until the retry count runs out). The retry
 * attributes are lowered so that every step ends within a few tens of milliseconds.
 */
final class ErrorSteps {
    /** One RNR retry, each after the shortest RNR timer (code 1, 0.01 ms). */
    static final QpSettings RNR = new QpSettings(QpSettings.DEFAULT.timeout(), 7, 1, 1);
    /** One retransmission after a local ACK timeout of 16.8 ms (code 12). */
    static final QpSettings NO_ANSWER = new QpSettings(12, 1, 7, 12);

    private ErrorSteps() {
    }

    static List<Step> all() {
        return List.of(
                Step.of("read-wrong-rkey", "RDMA_READ with a wrong rkey", e -> {
                    e.postWithWrongRkey(e.remote(WrOpcode.RDMA_READ, 40960, 64, 16384));
                    return MemoryView.describe("A", e.a.memory, 40960, 64);
                }),
                Step.of("write-out-of-bounds", "RDMA_WRITE of 64 bytes that ends 32 bytes past B's memory", e -> {
                    e.post(e.remote(WrOpcode.RDMA_WRITE, 4096, 64, Node.BUFFER - 32));
                    e.await(1, 0);
                    return MemoryView.describe("B", e.b.memory, Node.BUFFER - 32, 32);
                }),
                Step.of("send-too-long", "SEND of 512 bytes into a receive of 256", e -> {
                    e.postRecvB(45056, 256);
                    e.post(e.wr(WrOpcode.SEND, 4096, 512));
                    e.await(1, 1);
                    return MemoryView.describe("B", e.b.memory, 45056 + 256, 64);
                }),
                rnr(),
                Step.of("qp-gone", mtu -> "SEND to a QP that was destroyed: no answer, one retransmission (retry_cnt 1), "
                        + "then the error", NO_ANSWER, e -> {
                    e.c.destroyB();
                    e.post(e.wr(WrOpcode.SEND, 0, 64));
                    e.await(1, 0);
                    return "-";
                }));
    }

    /** No receive posted, also one of the mistakes scenario's. */
    static Step rnr() {
        return Step.of("rnr", mtu -> "SEND with no receive posted: RNR NAK, one retry (rnr_retry 1), then the error", RNR,
                e -> {
                    e.post(e.wr(WrOpcode.SEND, 0, 64));
                    e.await(1, 0);
                    return "-";
                });
    }
}
