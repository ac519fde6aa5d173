package io.jrxe.tools.view;

import io.jrxe.wire.dissect.DissectedPacket;
import io.jrxe.wire.dissect.Formats;
import io.jrxe.wire.dissect.HeaderFields;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Groups packets into connections. A UD packet names both of its QPs (the DETH carries the
 * source's). An RC or UC packet names only its destination QP, so its traffic is first gathered
 * into one-way flows (source address, destination address, destination QP), and each flow is
 * paired with a flow the other way: the one that shares its UDP source port (rxe derives it from
 * both QP numbers, the same both ways) and whose responses carry the PSNs of its requests, the
 * earliest one when nothing tells them apart. A flow with no partner has a source QP of unknown number.
 */
final class ConnectionFinder {
    private ConnectionFinder() {
    }

    private record FlowKey(String src, String dst, int qpn) {
    }

    /** One-way traffic to one QP; {@code from} and {@code to} are the endpoints once known. */
    private static final class Flow {
        final FlowKey key;
        final List<ViewPacket> packets = new ArrayList<>();
        final Set<Integer> sourcePorts = new HashSet<>();
        final Set<Integer> requestPsns = new HashSet<>();
        final Set<Integer> responsePsns = new HashSet<>();
        Flow partner;
        Endpoint from;
        Endpoint to;

        Flow(FlowKey key) {
            this.key = key;
        }

        void add(ViewPacket v) {
            DissectedPacket p = v.packet;
            packets.add(v);
            sourcePorts.add(p.udp() == null ? -1 : p.udp().srcPort());
            if (p.opcode() != null) {
                (p.opcode().isResponse() ? responsePsns : requestPsns).add(p.bth().psn());
            }
        }

        int first() {
            return packets.getFirst().index;
        }
    }

    static List<Connection> find(List<ViewPacket> packets) {
        Map<FlowKey, Flow> flows = new LinkedHashMap<>();
        for (ViewPacket v : packets) {
            DissectedPacket p = v.packet;
            HeaderFields.Deth deth = p.extension(HeaderFields.Deth.class);
            String src = Formats.ip(p.ip().src());
            String dst = Formats.ip(p.ip().dst());
            // A UD flow is keyed by both QPs: its source is known, and no pairing is needed.
            FlowKey key = deth != null ? new FlowKey(src + "/" + deth.srcQpn(), dst, p.bth().destQpn())
                    : new FlowKey(src, dst, p.bth().destQpn());
            Flow flow = flows.computeIfAbsent(key, Flow::new);
            if (deth != null) {
                flow.from = new Endpoint(src, deth.srcQpn());
                flow.to = new Endpoint(dst, p.bth().destQpn());
            }
            flow.add(v);
        }
        pair(flows.values());
        return connections(flows.values());
    }

    private static void pair(Iterable<Flow> flows) {
        for (Flow f : flows) {
            if (f.from != null || f.partner != null) {
                continue;
            }
            Flow best = null;
            int bestScore = -1;
            for (Flow g : flows) {
                if (g == f || g.from != null || g.partner != null
                        || !g.key.src().equals(f.key.dst()) || !g.key.dst().equals(f.key.src())) {
                    continue;
                }
                int score = score(f, g);
                if (score > bestScore || score == bestScore && g.first() < best.first()) {
                    best = g;
                    bestScore = score;
                }
            }
            if (best != null) {
                f.partner = best;
                best.partner = f;
                f.from = new Endpoint(f.key.src(), best.key.qpn());
                best.from = new Endpoint(best.key.src(), f.key.qpn());
                best.to = f.from;
            } else {
                f.from = new Endpoint(f.key.src(), Endpoint.UNKNOWN);
            }
            f.to = new Endpoint(f.key.dst(), f.key.qpn());
        }
    }

    /** How well {@code g} answers {@code f}: a shared UDP source port, then responses to requests by PSN. */
    private static int score(Flow f, Flow g) {
        int score = 0;
        for (int port : g.sourcePorts) {
            if (f.sourcePorts.contains(port)) {
                score += 1_000_000;
                break;
            }
        }
        for (int psn : g.responsePsns) {
            if (f.requestPsns.contains(psn)) {
                score++;
            }
        }
        for (int psn : f.responsePsns) {
            if (g.requestPsns.contains(psn)) {
                score++;
            }
        }
        return score;
    }

    /** One connection per pair of endpoints, numbered in the order of their first packets. */
    private static List<Connection> connections(Iterable<Flow> flows) {
        Map<List<Endpoint>, List<Flow>> byEnds = new LinkedHashMap<>();
        Map<ViewPacket, Flow> flowOf = new IdentityHashMap<>();
        for (Flow f : flows) {
            // The pair in a fixed order, whichever way the flow goes (a QP may even send to itself).
            List<Endpoint> ends = f.from.label().compareTo(f.to.label()) <= 0 ? List.of(f.from, f.to) : List.of(f.to, f.from);
            byEnds.computeIfAbsent(ends, k -> new ArrayList<>()).add(f);
            f.packets.forEach(v -> flowOf.put(v, f));
        }
        List<List<Flow>> groups = new ArrayList<>(byEnds.values());
        groups.sort(Comparator.comparingInt(g -> g.stream().mapToInt(Flow::first).min().orElseThrow()));
        List<Connection> connections = new ArrayList<>();
        for (List<Flow> group : groups) {
            List<ViewPacket> all = new ArrayList<>();
            group.forEach(f -> all.addAll(f.packets));
            all.sort(Comparator.comparingLong((ViewPacket v) -> v.sentNanos).thenComparingInt(v -> v.index));
            Flow firstFlow = flowOf.get(all.getFirst());
            Connection c = new Connection(connections.size(), transport(all.getFirst()), firstFlow.from, firstFlow.to);
            for (ViewPacket v : all) {
                c.add(v, flowOf.get(v).from.equals(c.lanes[0]) ? 0 : 1);
            }
            connections.add(c);
        }
        return connections;
    }

    private static String transport(ViewPacket v) {
        return v.packet.opcode() == null ? "?" : v.packet.opcode().transport().name();
    }
}
