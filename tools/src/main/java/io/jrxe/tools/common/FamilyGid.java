package io.jrxe.tools.common;

import io.jrxe.tools.BadOption;
import io.jrxe.tools.UserError;
import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.GidType;
import io.jrxe.verbs.VerbsException;

/**
 * The local GID a command sends from to an address of one IP family: a kernel device lists IPv4 and IPv6 GIDs side by
 * side, and a RoCE v2 packet's source and destination must be of the same family.
 */
public final class FamilyGid {
    private FamilyGid() {
    }

    /**
     * The GID given with -g ({@code gidIndex} 0 or more), which must be of the family; else the device's default GID
     * if it is, else its first RoCE v2 GID of that family that is not link-local, else a link-local one.
     *
     * @param what the command's argument that names the family, in its own words ("GROUP ff0e::1")
     */
    public static GidEntry choose(LocalDevice dev, int port, int gidIndex, boolean ipv6, String what) {
        if (gidIndex >= 0) {
            GidEntry g = dev.gid(gidIndex);
            if (GidEntry.isIpv4Mapped(g.gid()) == ipv6) {
                throw new BadOption("-g " + gidIndex + ": GID " + Gids.ntop(g.gid()) + " is " + (ipv6 ? "IPv4" : "IPv6")
                        + ", " + what + " is " + (ipv6 ? "IPv6" : "IPv4") + ": give a GID of its family");
            }
            return g;
        }
        GidEntry def = dev.gid(dev.defaultGidIndex());
        if (GidEntry.isIpv4Mapped(def.gid()) != ipv6) {
            return def;
        }
        GidEntry linkLocal = null;
        try {
            for (GidEntry e : dev.context().gidTable(port)) {
                if (e.type() != GidType.ROCE_V2 || GidEntry.isIpv4Mapped(e.gid()) == ipv6 || !Gids.hasInterfaceId(e.gid())) {
                    continue;
                }
                if ((e.gid()[0] & 0xFF) == 0xFE && (e.gid()[1] & 0xC0) == 0x80) {
                    linkLocal = linkLocal == null ? e : linkLocal;
                    continue;
                }
                return e;
            }
        } catch (VerbsException e) {
            throw new UserError("cannot read the GID table of " + dev.name() + ": " + e.getMessage(), e);
        }
        if (linkLocal != null) {
            return linkLocal;
        }
        throw new BadOption(what + " is " + (ipv6 ? "IPv6" : "IPv4") + " but " + dev.name() + " has no RoCE v2 GID "
                + "of that family" + ("emulated".equals(dev.provider()) ? ": give --addr an " + (ipv6 ? "IPv6" : "IPv4")
                + " address" : " (jrxe devinfo -v -d " + dev.name() + " lists its GIDs)"));
    }
}
