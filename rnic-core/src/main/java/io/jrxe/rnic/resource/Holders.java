package io.jrxe.rnic.resource;

import io.jrxe.rnic.RnicException;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The objects that use a resource (the MRs and QPs of a PD, the QPs of a CQ, ...). A resource
 * with holders cannot be destroyed, and the error lists them, like EBUSY from a real driver but
 * saying who.
 */
public final class Holders {
    private final Set<Object> holders = new LinkedHashSet<>();

    public void add(Object holder) {
        holders.add(holder);
    }

    public void remove(Object holder) {
        holders.remove(holder);
    }

    public int count() {
        return holders.size();
    }

    public boolean isEmpty() {
        return holders.isEmpty();
    }

    /** Throws EBUSY naming every holder unless there are none. */
    public void checkUnused(String what) throws RnicException {
        if (holders.isEmpty()) {
            return;
        }
        List<String> names = new ArrayList<>();
        for (Object h : holders) {
            names.add(h.toString());
        }
        int shown = Math.min(names.size(), 8);
        String list = String.join(", ", names.subList(0, shown))
                + (names.size() > shown ? " and " + (names.size() - shown) + " more" : "");
        throw RnicException.busy("cannot destroy " + what + ": still in use by " + list);
    }
}
