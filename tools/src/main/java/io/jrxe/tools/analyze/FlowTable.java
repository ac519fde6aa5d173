package io.jrxe.tools.analyze;

import io.jrxe.wire.opcode.Transport;
import io.netty.util.collection.LongObjectHashMap;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds the flow of each packet and groups flows into connections. A UD packet names both QPs (the DETH
 * carries the source's), so its flow joins the connection of that pair of QPs. An RC or UC flow is paired
 * with the flow the other way between the same addresses that shares its UDP source port (rxe, jrxe and the
 * RDMA CM derive it from both QPs' numbers or the connection's flow label, the same both ways), or failing
 * that, with the only unpaired flow the other way; its sender's QP number is the number the other flow is
 * sent to. A flow with no partner is a connection whose sender's QP is unknown.
 * <p>
 * A packet of a known flow is found by a hash of its addresses and QPs, without allocating.
 */
final class FlowTable {
    private final LongObjectHashMap<Flow> flows = new LongObjectHashMap<>();
    /** RC and UC flows still without a partner, by "source>destination", and by "source>destination:UDP port". */
    private final Map<String, Set<Flow>> unpaired = new HashMap<>();
    private final Map<String, Flow> unpairedByPort = new HashMap<>();
    /** UD connections by their two endpoints, in a fixed order. */
    private final Map<String, Connection> udConnections = new HashMap<>();
    private final List<Connection> connections = new ArrayList<>();
    private final int keep;
    private final Timeline timeline;
    private boolean arrivalsKnown;

    FlowTable(int keep, Timeline timeline) {
        this.keep = keep;
        this.timeline = timeline;
    }

    /** The capture records where each packet arrived: the connections made from now on say so in their findings. */
    void arrivalsKnown() {
        arrivalsKnown = true;
    }

    List<Connection> connections() {
        return connections;
    }

    Flow flow(RocePacket p) {
        int srcQpn = p.dethSrcQp;
        long hash = hash(p, srcQpn);
        Flow first = flows.get(hash);
        for (Flow f = first; f != null; f = f.sameHash) {
            if (f.matches(p, srcQpn)) {
                return f;
            }
        }
        Flow f = new Flow(p, srcQpn, hash);
        f.sameHash = first;
        flows.put(hash, f);
        if (srcQpn >= 0) {
            joinUd(f, p);
        } else {
            pair(f, p);
        }
        return f;
    }

    private void pair(Flow f, RocePacket p) {
        String from = p.srcText();
        String to = p.dstText();
        Set<Flow> back = unpaired.getOrDefault(to + ">" + from, Set.of());
        Flow partner = unpairedByPort.get(to + ">" + from + ":" + f.udpPort);
        if (partner == null && back.size() == 1) {
            partner = back.iterator().next();
        }
        if (partner != null) {
            back.remove(partner);
            unpairedByPort.remove(to + ">" + from + ":" + partner.udpPort, partner);
            f.partner = partner;
            partner.partner = f;
            f.connection = partner.connection;
            f.side = 1 - partner.side;
            f.connection.qpn[partner.side] = f.qpn;
            return;
        }
        // A CNP says nothing of the transport it is about; RoCE's congestion control is RC's.
        Transport transport = p.opcode.transport() == Transport.CNP ? Transport.RC : p.opcode.transport();
        Connection c = new Connection(connections.size() + 1, transport, from, to, p.srcPort, keep, timeline, arrivalsKnown);
        c.qpn[1] = f.qpn;
        c.firstFrame = p.frame;
        c.firstTime = p.time;
        connections.add(c);
        f.connection = c;
        f.side = 0;
        unpaired.computeIfAbsent(from + ">" + to, k -> new LinkedHashSet<>()).add(f);
        unpairedByPort.putIfAbsent(from + ">" + to + ":" + f.udpPort, f);
    }

    private void joinUd(Flow f, RocePacket p) {
        String from = p.srcText() + "/" + f.srcQpn;
        String to = p.dstText() + "/" + f.qpn;
        String key = from.compareTo(to) <= 0 ? from + "|" + to : to + "|" + from;
        Connection c = udConnections.get(key);
        if (c == null) {
            c = new Connection(connections.size() + 1, Transport.UD, p.srcText(), p.dstText(), p.srcPort, keep, timeline, arrivalsKnown);
            c.qpn[0] = f.srcQpn;
            c.qpn[1] = f.qpn;
            c.firstFrame = p.frame;
            c.firstTime = p.time;
            udConnections.put(key, c);
            connections.add(c);
            f.side = 0;
        } else {
            f.side = c.qpn[0] == f.srcQpn && c.address[0].equals(p.srcText()) ? 0 : 1;
        }
        f.connection = c;
    }

    private static long hash(RocePacket p, int srcQpn) {
        long h = p.destQpn * 0x9E3779B97F4A7C15L + srcQpn;
        int n = p.addressLength();
        for (int i = 0; i < n; i++) {
            h = h * 31 + p.src[i];
        }
        for (int i = 0; i < n; i++) {
            h = h * 31 + p.dst[i];
        }
        return h ^ (h >>> 29);
    }
}
