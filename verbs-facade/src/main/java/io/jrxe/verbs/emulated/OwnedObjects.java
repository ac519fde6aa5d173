package io.jrxe.verbs.emulated;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a context or a PD made and closes with itself. Objects closed on their own are let go of as new ones are
 * made: whenever the set has grown to twice what was open at the last sweep, the closed ones leave it, so that a
 * program that creates and destroys QPs (or MRs, CQs, ...) without end holds only about twice what is open.
 */
final class OwnedObjects {
    private static final int FIRST_SWEEP = 64;

    private final Set<OwnedByContext> objects = ConcurrentHashMap.newKeySet();
    private final AtomicInteger sweepAt = new AtomicInteger(FIRST_SWEEP);

    <T extends OwnedByContext> T adopt(T object) {
        objects.add(object);
        int at = sweepAt.get();
        if (objects.size() >= at && sweepAt.compareAndSet(at, Integer.MAX_VALUE)) {
            objects.removeIf(OwnedByContext::isClosed);
            sweepAt.set(Math.max(FIRST_SWEEP, 2 * objects.size()));
        }
        return object;
    }

    /** The objects still held, closed or not: a snapshot to iterate while closing them. */
    Iterable<OwnedByContext> all() {
        return objects;
    }

    /** How many are held, closed ones not yet let go of included. */
    int held() {
        return objects.size();
    }

    void clear() {
        objects.clear();
    }
}
