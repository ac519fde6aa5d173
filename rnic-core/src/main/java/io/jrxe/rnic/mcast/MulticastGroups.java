package io.jrxe.rnic.mcast;

import io.jrxe.rnic.RnicException;
import io.jrxe.rnic.qp.QueuePair;
import io.jrxe.verbs.DeviceAttributes;
import io.jrxe.verbs.MulticastGid;
import io.jrxe.verbs.QpType;
import io.jrxe.wire.port.PeerAddress;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A device's multicast groups and which QPs are attached to each: ibv_attach_mcast and ibv_detach_mcast as Linux
 * answers them for rxe. Three layers decide there, and each is kept: uverbs remembers every (GID, LID) pair a QP
 * attached, so the same pair again succeeds without change and a detach must name a remembered pair (EINVAL
 * otherwise); the core refuses a GID that is not multicast or a QP that is not UD (EINVAL); rxe keeps one
 * membership per QP and group, and enforces max_mcast_grp, max_mcast_qp_attach and max_total_mcast_qp_attach
 * (ENOMEM; EINVAL when max_mcast_grp is 0). The LID means nothing on RoCE beyond being part of the pair.
 *
 * <p>The device's port receives a group's datagrams while at least one of its QPs is attached: attach and detach
 * say when that starts and stops. Owned by the NIC thread, where the receive path reads {@link #group}.
 */
public final class MulticastGroups {
    private final String device;
    private final DeviceAttributes limits;
    private final boolean ipv6;
    private final Map<PeerAddress, MulticastGroup> groups = new HashMap<>();
    /** What uverbs remembers: each QP's attached (group, LID) pairs, by QP number. */
    private final Map<Integer, List<Pair>> pairs = new HashMap<>();
    private int attachments;

    private record Pair(PeerAddress group, int lid) {
    }

    /**
     * @param device the device's name, for messages
     * @param limits its attributes (the three multicast limits)
     * @param ipv6   whether its port is on IPv6: it receives groups of its own family only
     */
    public MulticastGroups(String device, DeviceAttributes limits, boolean ipv6) {
        this.device = device;
        this.limits = limits;
        this.ipv6 = ipv6;
    }

    /**
     * Attaches the QP to the group {@code gid}.
     *
     * @return the group's address when the QP is the first of the device in it (the port must start receiving
     *         it), else null
     */
    public PeerAddress attach(QueuePair qp, byte[] gid, int lid) throws RnicException {
        String what = String.format("attach QP 0x%06x to %s", qp.qpn(), describe(gid));
        if (!MulticastGid.isMulticast(gid)) {
            throw RnicException.invalid(what + ": not a multicast GID (ff00::/8, or ::ffff:224.0.0.0/4 for IPv4)");
        }
        if (qp.type() != QpType.UD) {
            throw RnicException.invalid(what + ": only a UD QP joins a multicast group, this one is " + qp.type());
        }
        PeerAddress group = PeerAddress.ofGid(gid);
        Pair pair = new Pair(group, lid & 0xFFFF);
        if (pairs.getOrDefault(qp.qpn(), List.of()).contains(pair)) {
            return null; // the same pair again: uverbs answers 0 and changes nothing
        }
        if (limits.maxMcastGrp() == 0) {
            throw RnicException.invalid(what + ": device " + device + " has max_mcast_grp 0, no multicast");
        }
        if (group.ipv6() != ipv6) {
            throw RnicException.invalid(what + ": device " + device + " is on " + (ipv6 ? "IPv6" : "IPv4")
                    + " and receives groups of that family only");
        }
        MulticastGroup g = groups.get(group);
        if (g == null && groups.size() >= limits.maxMcastGrp()) {
            throw RnicException.exhausted(what + ": device " + device + " has max_mcast_grp " + limits.maxMcastGrp()
                    + " groups and all are in use");
        }
        if (g != null && g.has(qp)) {
            remember(qp, pair); // attached under another LID: one membership, two remembered pairs
            return null;
        }
        if (attachments >= limits.maxTotalMcastQpAttach()) {
            throw RnicException.exhausted(what + ": device " + device + " holds max_total_mcast_qp_attach "
                    + limits.maxTotalMcastQpAttach() + " attachments and all are in use");
        }
        if (g != null && g.size() >= limits.maxMcastQpAttach()) {
            throw RnicException.exhausted(what + ": the group has max_mcast_qp_attach " + limits.maxMcastQpAttach()
                    + " QPs already");
        }
        boolean first = g == null;
        if (first) {
            g = new MulticastGroup(group);
            groups.put(group, g);
        }
        g.add(qp);
        attachments++;
        remember(qp, pair);
        return first ? group : null;
    }

    private void remember(QueuePair qp, Pair pair) {
        pairs.computeIfAbsent(qp.qpn(), k -> new ArrayList<>()).add(pair);
    }

    /**
     * Detaches the QP from the group {@code gid} it was attached to with {@code lid}.
     *
     * @return the group's address when the device's last QP left it (the port stops receiving it), else null
     */
    public PeerAddress detach(QueuePair qp, byte[] gid, int lid) throws RnicException {
        String what = String.format("detach QP 0x%06x from %s", qp.qpn(), describe(gid));
        List<Pair> mine = pairs.get(qp.qpn());
        Pair pair = gid != null && gid.length == 16 ? new Pair(PeerAddress.ofGid(gid), lid & 0xFFFF) : null;
        if (mine == null || pair == null || !mine.remove(pair)) {
            throw RnicException.invalid(what + " with LID " + (lid & 0xFFFF) + ": the QP was not attached to it with that LID");
        }
        if (mine.isEmpty()) {
            pairs.remove(qp.qpn());
        }
        MulticastGroup g = groups.get(pair.group());
        if (g == null || !g.remove(qp)) {
            // The QP left the group already, detached under the other LID it was attached with: rxe says EINVAL.
            throw RnicException.invalid(what + " with LID " + (lid & 0xFFFF) + ": the QP left the group already "
                    + "(it was attached under two LIDs and detached under the other)");
        }
        attachments--;
        if (g.size() == 0) {
            groups.remove(pair.group());
            return pair.group();
        }
        return null;
    }

    /** How many (GID, LID) pairs the QP has attached: a QP with any cannot be destroyed. */
    public int pairsOf(QueuePair qp) {
        List<Pair> mine = pairs.get(qp.qpn());
        return mine == null ? 0 : mine.size();
    }

    /** The group datagrams sent to {@code address} belong to, or null when no QP of the device is attached to it. */
    public MulticastGroup group(PeerAddress address) {
        return groups.get(address);
    }

    /** How many groups have QPs attached. */
    public int groupCount() {
        return groups.size();
    }

    /** How many QP attachments all groups hold. */
    public int attachmentCount() {
        return attachments;
    }

    private static String describe(byte[] gid) {
        if (gid == null || gid.length != 16) {
            return "a GID of " + (gid == null ? "null" : gid.length + " bytes") + " (a GID has 16)";
        }
        return "group " + PeerAddress.ofGid(gid);
    }
}
