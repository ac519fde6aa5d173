package io.jrxe.rnic.engine;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ResponseQueueTest {
    @Test
    void responsesLeaveInTheOrderTheyCameAndTheRingWrapsAround() {
        ResponseQueue q = new ResponseQueue(3);
        q.add().psn = 1;
        q.add().psn = 2;
        q.removeHead();
        q.add().psn = 3;
        q.add().psn = 4; // the third slot, then the first again
        assertThat(q.isFull()).isTrue();
        List<Integer> order = new ArrayList<>();
        while (!q.isEmpty()) {
            order.add(q.head().psn);
            q.removeHead();
        }
        assertThat(order).containsExactly(2, 3, 4);
        assertThat(q.head()).isNull();
        assertThat(q.tail()).isNull();
    }

    @Test
    void aQueueThatEmptiesUsesItsFirstSlotAgainAndMakesNoOther() {
        ResponseQueue q = new ResponseQueue(10);
        PendingResponse first = q.add();
        q.removeHead();
        for (int i = 0; i < 100; i++) {
            assertThat(q.add()).as("response %d of a queue that empties each time", i).isSameAs(first);
            assertThat(q.tail()).isSameAs(first);
            q.removeHead();
        }
        PendingResponse second = q.add() == first ? q.add() : null;
        assertThat(second).isNotNull().isNotSameAs(first);
    }

    @Test
    void aSlotMadeOnceIsKeptForTheQueuesLife() {
        ResponseQueue q = new ResponseQueue(2);
        PendingResponse a = q.add();
        PendingResponse b = q.add();
        q.clear();
        assertThat(q.add()).isSameAs(a);
        assertThat(q.add()).isSameAs(b);
        assertThat(q.head()).isSameAs(a);
    }
}
