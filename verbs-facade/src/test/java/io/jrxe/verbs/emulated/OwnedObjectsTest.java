package io.jrxe.verbs.emulated;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class OwnedObjectsTest {
    /** A verbs object that is open until closed. */
    static final class Thing implements OwnedByContext {
        boolean closed;

        @Override
        public boolean isClosed() {
            return closed;
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    @Test
    void objectsClosedOnTheirOwnAreLetGoOfAsNewOnesCome() {
        OwnedObjects owned = new OwnedObjects();
        List<Thing> open = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            open.add(owned.adopt(new Thing()));
        }
        for (int i = 0; i < 100_000; i++) {
            owned.adopt(new Thing()).close();
        }
        assertThat(owned.held()).as("held after 100,000 made and closed, 10 open").isLessThanOrEqualTo(128);
        List<OwnedByContext> held = new ArrayList<>();
        owned.all().forEach(held::add);
        assertThat(held).containsAll(open);
    }

    @Test
    void openObjectsAreAllKept() {
        OwnedObjects owned = new OwnedObjects();
        for (int i = 0; i < 1000; i++) {
            owned.adopt(new Thing());
        }
        assertThat(owned.held()).isEqualTo(1000);
    }
}
