package io.jrxe.rnic.queue;

import io.jrxe.verbs.WorkCompletion;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The CQ ring between two threads, as between the NIC thread and the application: one producer
 * pushes a million completions (retrying while the ring is full), the test thread polls them in
 * batches, and every wr_id arrives exactly once, in order, with every field of its entry intact.
 */
class CqConcurrencyTest {
    private static final long COMPLETIONS = 1_000_000;

    @Test
    void aMillionCompletionsCrossTheRingInOrder() {
        assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
            CompletionQueue cq = new CompletionQueue(1, 256, null);
            AtomicReference<Throwable> producerFailure = new AtomicReference<>();
            Thread producer = Thread.ofPlatform().daemon().name("nic-thread").unstarted(() -> {
                try {
                    for (long id = 0; id < COMPLETIONS && !Thread.currentThread().isInterrupted(); id++) {
                        while (!Completions.push(cq, id)) {
                            if (Thread.currentThread().isInterrupted()) {
                                return;
                            }
                            Thread.onSpinWait();
                        }
                    }
                } catch (Throwable t) {
                    producerFailure.set(t);
                }
            });
            producer.start();
            try {
                WorkCompletion[] out = Completions.batch(64);
                long expected = 0;
                long polls = 0;
                while (expected < COMPLETIONS) {
                    int n = cq.poll(out, out.length);
                    polls++;
                    for (int i = 0; i < n; i++) {
                        if (!Completions.intact(out[i], expected)) {
                            assertThat(out[i].toString()).as("completion %d", expected)
                                    .isEqualTo("an intact entry with wr_id=" + expected);
                        }
                        expected++;
                    }
                    if (n == 0) {
                        assertThat(producerFailure.get()).isNull();
                        Thread.onSpinWait();
                    }
                }
                producer.join();
                assertThat(producerFailure.get()).isNull();
                assertThat(cq.poll(out, out.length)).as("nothing after the last").isZero();
                assertThat(cq.depth()).isZero();
                assertThat(polls).isGreaterThanOrEqualTo(COMPLETIONS / out.length);
            } finally {
                producer.interrupt();
            }
        });
    }
}
