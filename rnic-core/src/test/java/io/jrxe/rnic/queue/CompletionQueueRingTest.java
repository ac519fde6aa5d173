package io.jrxe.rnic.queue;

import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayDeque;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The CQ ring alone: its size is the request rounded up to a power of two, completions come
 * out in the order they went in, a poll takes at most what it is asked for, and a full ring
 * refuses the next completion (overflow) without touching the ones waiting.
 */
class CompletionQueueRingTest {
    @ParameterizedTest(name = "{0} entries -> ring of {1}")
    @CsvSource({
        "1, 2", "2, 2", "3, 4", "4, 4", "5, 8", "7, 8", "8, 8", "9, 16",
        "1000, 1024", "1024, 1024", "1025, 2048", "32767, 32768",
    })
    void theRingIsTheRequestRoundedUpToAPowerOfTwo(int entries, int ring) {
        CompletionQueue cq = new CompletionQueue(1, entries, null);
        assertThat(cq.capacity()).isEqualTo(ring);
        assertThat(cq.capacity()).isGreaterThanOrEqualTo(entries);
        for (int i = 0; i < ring; i++) {
            assertThat(Completions.push(cq, i)).as("entry %d of %d", i, ring).isTrue();
        }
        assertThat(Completions.push(cq, ring)).as("one more than the ring").isFalse();
    }

    @Test
    void aCqNeedsAtLeastOneEntry() {
        assertThatThrownBy(() -> new CompletionQueue(1, 0, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a CQ needs at least 1 entry, not 0");
    }

    @Test
    void completionsComeOutInOrderWithEveryField() {
        CompletionQueue cq = new CompletionQueue(1, 16, null);
        for (long id = 100; id < 110; id++) {
            assertThat(Completions.push(cq, id)).isTrue();
        }
        assertThat(cq.depth()).isEqualTo(10);
        WorkCompletion[] out = Completions.batch(1);
        for (long id = 100; id < 110; id++) {
            assertThat(cq.poll(out, 1)).isEqualTo(1);
            assertThat(Completions.intact(out[0], id)).as("%s", out[0]).isTrue();
        }
        assertThat(cq.poll(out, 1)).isZero();
        assertThat(cq.depth()).isZero();
    }

    @Test
    void aPollTakesAtMostMaxAndAtMostTheArray() {
        CompletionQueue cq = new CompletionQueue(1, 32, null);
        for (long id = 0; id < 20; id++) {
            Completions.push(cq, id);
        }
        WorkCompletion[] out = Completions.batch(8);
        assertThat(cq.poll(out, 5)).isEqualTo(5);
        assertThat(out[4].wrId()).isEqualTo(4);
        assertThat(cq.poll(out, 100)).as("limited by the array").isEqualTo(8);
        assertThat(out[0].wrId()).isEqualTo(5);
        assertThat(out[7].wrId()).isEqualTo(12);
        assertThat(cq.poll(out, 8)).isEqualTo(7);
        assertThat(out[6].wrId()).isEqualTo(19);
        assertThat(cq.poll(out, 0)).isZero();
        assertThat(cq.poll(out, 8)).isZero();
    }

    @Test
    void aFullRingRefusesTheNextCompletionAndKeepsTheOthers() {
        CompletionQueue cq = new CompletionQueue(1, 4, null);
        for (long id = 0; id < 4; id++) {
            assertThat(Completions.push(cq, id)).isTrue();
        }
        assertThat(cq.overflowed()).isFalse();
        assertThat(Completions.push(cq, 99)).isFalse();
        assertThat(cq.overflowed()).isTrue();
        assertThat(cq.depth()).isEqualTo(4);
        WorkCompletion[] out = Completions.batch(8);
        assertThat(cq.poll(out, 8)).isEqualTo(4);
        for (int i = 0; i < 4; i++) {
            assertThat(Completions.intact(out[i], i)).isTrue();
        }
    }

    @Test
    void seededPushesAndPollsMatchAQueue() {
        long seed = 424242;
        Random random = new Random(seed);
        CompletionQueue cq = new CompletionQueue(1, 8, null);
        ArrayDeque<Long> model = new ArrayDeque<>();
        WorkCompletion[] out = Completions.batch(5);
        long next = 0;
        for (int step = 0; step < 20_000; step++) {
            if (random.nextBoolean()) {
                boolean pushed = Completions.push(cq, next);
                assertThat(pushed).as("seed %d step %d push", seed, step).isEqualTo(model.size() < 8);
                if (pushed) {
                    model.add(next);
                }
                next++;
            } else {
                int max = 1 + random.nextInt(5);
                int n = cq.poll(out, max);
                assertThat(n).as("seed %d step %d poll", seed, step).isEqualTo(Math.min(max, model.size()));
                for (int i = 0; i < n; i++) {
                    long id = model.poll();
                    assertThat(Completions.intact(out[i], id)).as("seed %d step %d: %s", seed, step, out[i]).isTrue();
                }
            }
            assertThat(cq.depth()).isEqualTo(model.size());
        }
    }

    @Test
    void statusAndOpcodeKeepTheirVerbsValues() {
        CompletionQueue cq = new CompletionQueue(1, 4, null);
        cq.push(7, WcStatus.RNR_RETRY_EXC_ERR, WcOpcode.RECV_RDMA_WITH_IMM, 3, 0, 0, 1, 2, 0, 0xFFFF, false);
        WorkCompletion[] out = Completions.batch(1);
        cq.poll(out, 1);
        assertThat(out[0].status()).isEqualTo(WcStatus.RNR_RETRY_EXC_ERR);
        assertThat(out[0].status().verbsValue()).isEqualTo(13);
        assertThat(out[0].opcode()).isEqualTo(WcOpcode.RECV_RDMA_WITH_IMM);
        assertThat(out[0].opcode().verbsValue()).isEqualTo(129);
        assertThat(out[0].pkeyIndex()).isEqualTo(0xFFFF);
    }

    @Test
    void everyFieldKeepsItsWidestValue() {
        CompletionQueue cq = new CompletionQueue(1, 2, null);
        int flags = WorkCompletion.WITH_GRH | WorkCompletion.WITH_IMM | WorkCompletion.WITH_INV;
        cq.push(-1L, WcStatus.GENERAL_ERR, WcOpcode.RECV, -1, Integer.MAX_VALUE, Integer.MIN_VALUE, 0xFFFFFF, 0xFFFFFF,
                flags, 0xFFFF, false);
        cq.push(Long.MIN_VALUE, WcStatus.SUCCESS, WcOpcode.SEND, Integer.MIN_VALUE, 0, -1, 0, 1, 0, 0, false);
        WorkCompletion[] out = Completions.batch(2);
        assertThat(cq.poll(out, 2)).isEqualTo(2);
        assertThat(out[0].wrId()).isEqualTo(-1L);
        assertThat(out[0].status()).isEqualTo(WcStatus.GENERAL_ERR);
        assertThat(out[0].opcode()).isEqualTo(WcOpcode.RECV);
        assertThat(out[0].vendorErr()).isEqualTo(-1);
        assertThat(out[0].byteLen()).isEqualTo(Integer.MAX_VALUE);
        assertThat(out[0].immData()).isEqualTo(Integer.MIN_VALUE);
        assertThat(out[0].qpNum()).isEqualTo(0xFFFFFF);
        assertThat(out[0].srcQp()).isEqualTo(0xFFFFFF);
        assertThat(out[0].wcFlags()).isEqualTo(flags);
        assertThat(out[0].pkeyIndex()).isEqualTo(0xFFFF);
        assertThat(out[1].wrId()).isEqualTo(Long.MIN_VALUE);
        assertThat(out[1].vendorErr()).isEqualTo(Integer.MIN_VALUE);
        assertThat(out[1].immData()).isEqualTo(-1);
        assertThat(out[1].qpNum()).isZero();
        assertThat(out[1].srcQp()).isEqualTo(1);
        assertThat(out[1].wcFlags()).isZero();
        assertThat(out[1].pkeyIndex()).isZero();
    }
}
