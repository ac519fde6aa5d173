package io.jrxe.rnic.queue;

import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The work queue ring: posters claim slots and publish them, the NIC thread peeks and removes;
 * only published entries are visible, a full ring gives no slot, abandoned claims are given
 * back, and clear drops everything.
 */
class WorkQueueTest {
    /** A slot that remembers which one it is and what was written into it. */
    static final class Slot {
        final int index;
        long value;

        Slot(int index) {
            this.index = index;
        }
    }

    private final WorkQueue<Slot> queue = new WorkQueue<>(4, Slot::new);

    @Test
    void claimedEntriesAreInvisibleUntilPublished() {
        Slot a = queue.claim();
        a.value = 10;
        Slot b = queue.claim();
        b.value = 11;
        assertThat(a.index).isZero();
        assertThat(b.index).isEqualTo(1);
        assertThat(queue.peek()).isNull();
        assertThat(queue.depth()).isZero();

        queue.publish();
        assertThat(queue.depth()).isEqualTo(2);
        assertThat(queue.peek()).isSameAs(a);
        assertThat(queue.peek(1)).isSameAs(b);
        assertThat(queue.peek(2)).isNull();
        queue.remove();
        assertThat(queue.peek()).isSameAs(b);
        assertThat(queue.peek().value).isEqualTo(11);
        queue.remove();
        assertThat(queue.peek()).isNull();
        assertThat(queue.depth()).isZero();
    }

    @Test
    void aFullQueueGivesNoSlotUntilOneIsRemoved() {
        for (int i = 0; i < 4; i++) {
            assertThat(queue.claim()).as("slot %d", i).isNotNull();
        }
        assertThat(queue.claim()).as("claimed, not yet published").isNull();
        queue.publish();
        assertThat(queue.claim()).as("published, not yet consumed").isNull();
        queue.remove();
        Slot reused = queue.claim();
        assertThat(reused.index).as("the removed slot comes back").isZero();
        assertThat(queue.claim()).isNull();
        assertThat(queue.capacity()).isEqualTo(4);
    }

    @Test
    void abandonedClaimsAreGivenBack() {
        queue.claim().value = 1;
        queue.publish();
        Slot x = queue.claim();
        queue.claim();
        queue.abandonClaims();
        assertThat(queue.depth()).isEqualTo(1);
        assertThat(queue.peek(1)).isNull();
        assertThat(queue.claim()).as("the first abandoned slot again").isSameAs(x);
        queue.publish();
        assertThat(queue.depth()).isEqualTo(2);
    }

    @Test
    void clearDropsPublishedAndClaimedEntries() {
        for (int i = 0; i < 3; i++) {
            queue.claim();
        }
        queue.publish();
        queue.claim();
        queue.clear();
        assertThat(queue.depth()).isZero();
        assertThat(queue.peek()).isNull();
        for (int i = 0; i < 4; i++) {
            assertThat(queue.claim()).as("slot %d after clear", i).isNotNull();
        }
        assertThat(queue.claim()).isNull();
    }

    @Test
    void oneWorkRequestAtATimeKeepsOneEntryObject() {
        Slot first = null;
        for (int i = 0; i < 10; i++) {
            Slot s = queue.claim();
            if (first == null) {
                first = s;
            }
            assertThat(s).as("claim %d into an empty queue", i).isSameAs(first);
            s.value = i;
            queue.publish();
            assertThat(queue.peek().value).isEqualTo(i);
            queue.remove();
        }
        assertThat(queue.entriesMade()).isEqualTo(1);
    }

    @Test
    void entriesAreMadeAsOutstandingWorkNeedsThemAndNeverBeyondTheCapacity() {
        assertThat(queue.entriesMade()).as("before any claim").isZero();
        queue.claim();
        queue.claim();
        queue.publish();
        assertThat(queue.entriesMade()).isEqualTo(2);
        for (int i = 0; i < 20; i++) {
            Slot s = queue.claim();
            s.value = i;
            queue.publish();
            queue.remove();
        }
        assertThat(queue.entriesMade()).as("two or three outstanding at a time").isEqualTo(4);
    }

    @Test
    void aQueueNeedsAtLeastOneEntry() {
        assertThatThrownBy(() -> new WorkQueue<>(0, Slot::new))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a work queue needs at least 1 entry");
    }

    @Test
    void seededOperationsOnARingOfThreeMatchAQueue() {
        long seed = 99;
        Random random = new Random(seed);
        WorkQueue<Slot> ring = new WorkQueue<>(3, Slot::new);
        ArrayDeque<Long> published = new ArrayDeque<>();
        ArrayDeque<Long> claimed = new ArrayDeque<>();
        long next = 0;
        for (int step = 0; step < 50_000; step++) {
            String at = "seed " + seed + " step " + step;
            switch (random.nextInt(5)) {
                case 0, 1 -> {
                    Slot s = ring.claim();
                    boolean room = published.size() + claimed.size() < 3;
                    assertThat(s != null).as(at).isEqualTo(room);
                    if (s != null) {
                        s.value = next;
                        claimed.add(next++);
                    }
                }
                case 2 -> {
                    ring.publish();
                    published.addAll(claimed);
                    claimed.clear();
                }
                case 3 -> {
                    Slot head = ring.peek();
                    assertThat(head == null).as(at).isEqualTo(published.isEmpty());
                    if (head != null) {
                        assertThat(head.value).as(at).isEqualTo(published.poll());
                        ring.remove();
                    }
                }
                default -> {
                    if (random.nextInt(4) == 0) {
                        ring.abandonClaims();
                        claimed.clear();
                    }
                }
            }
            assertThat(ring.depth()).as(at).isEqualTo(published.size());
            assertThat(ring.entriesMade()).as(at).isLessThanOrEqualTo(3);
        }
    }
}
