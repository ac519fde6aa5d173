package io.jrxe.tools.common;

import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.GidType;

import java.util.List;
import java.util.Optional;

/**
 * The GID a tool uses on a kernel device when none is given: a RoCE v2 GID, an IPv4-mapped one first (rxe lists
 * its link-local GID first, and the IPv4 one is what a peer reaches it at most often), as perftest chooses.
 */
public final class DefaultGid {
    private DefaultGid() {
    }

    public static Optional<GidEntry> of(List<GidEntry> table) {
        GidEntry best = null;
        for (GidEntry e : table) {
            if (e.type() != GidType.ROCE_V2) {
                continue;
            }
            if (best == null || GidEntry.isIpv4Mapped(e.gid()) && !GidEntry.isIpv4Mapped(best.gid())) {
                best = e;
            }
        }
        return Optional.ofNullable(best);
    }
}
