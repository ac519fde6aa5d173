package io.jrxe.tools.view;

import io.jrxe.wire.dissect.DissectedPacket;
import io.jrxe.wire.dissect.Formats;
import io.jrxe.wire.dissect.HeaderFields;
import io.jrxe.wire.dissect.PacketJson;

import java.util.HexFormat;
import java.util.List;

/**
 * The data the page draws from, as one JSON object: the capture's counts, the connections and
 * their lanes, the messages and RNR waits, and each packet with its place in the ladder, its marks,
 * the dissector's fields ({@link PacketJson}, under "d") and the header fields that object leaves
 * out (under "x"), so that the page can show every header field by field.
 */
final class LadderJson {
    /** Payload bytes shown in a packet's detail; the rest is counted, not shown. */
    static final int PAYLOAD_SHOWN = 64;

    private LadderJson() {
    }

    static String of(String title, LoadedCapture capture, List<Connection> connections, LadderMarks marks) {
        List<ViewPacket> packets = capture.packets();
        long start = packets.stream().mapToLong(v -> v.sentNanos).min().orElse(0);
        JsonOut j = new JsonOut(1024 + packets.size() * 900).object();
        j.field("file", title).field("frames", capture.frames()).field("not_roce", capture.notRoce())
                .field("copies", capture.copies()).field("truncated", capture.truncated())
                .field("max_packets", capture.maxPackets()).field("damage", capture.damage())
                .field("start", Formats.time(start));
        j.key("flags").array();
        for (String name : LadderMarks.FLAG_NAMES) {
            j.value(name);
        }
        j.endArray();
        connections(j, connections);
        messages(j, marks);
        j.key("packets").array();
        int[] connectionOf = new int[packets.size()];
        int[] laneOf = new int[packets.size()];
        for (Connection c : connections) {
            for (int k = 0; k < c.packets.size(); k++) {
                connectionOf[c.packets.get(k).index] = c.id;
                laneOf[c.packets.get(k).index] = c.senders.get(k);
            }
        }
        for (ViewPacket v : packets) {
            packet(j, v, start, connectionOf[v.index], laneOf[v.index], marks);
        }
        j.endArray();
        return j.endObject().toString();
    }

    private static void connections(JsonOut j, List<Connection> connections) {
        j.key("connections").array();
        for (Connection c : connections) {
            j.object().field("id", c.id).field("transport", c.transport);
            j.key("lanes").array();
            for (Endpoint e : c.lanes) {
                j.object().field("ip", e.ip()).field("qpn", e.qpn()).field("qp", e.qpLabel()).endObject();
            }
            j.endArray();
            j.key("packets").array();
            for (ViewPacket v : c.packets) {
                j.value(v.index);
            }
            j.endArray().endObject();
        }
        j.endArray();
    }

    private static void messages(JsonOut j, LadderMarks marks) {
        j.key("messages").array();
        for (LadderMarks.Message m : marks.messages) {
            j.object().field("c", m.connection()).field("lane", m.lane()).field("first", m.first())
                    .field("last", m.last()).field("label", m.label()).endObject();
        }
        j.endArray();
        j.key("rnr_waits").array();
        for (LadderMarks.RnrWait w : marks.rnrWaits) {
            j.object().field("c", w.connection()).field("lane", w.lane()).field("from", w.from()).field("to", w.to())
                    .field("timer", w.timer()).endObject();
        }
        j.endArray();
    }

    private static void packet(JsonOut j, ViewPacket v, long start, int connection, int lane, LadderMarks marks) {
        DissectedPacket p = v.packet;
        j.object().field("i", v.index).field("c", connection).field("f", lane)
                .field("t", v.sentNanos - start).field("a", v.arrived() ? v.arrivedNanos - start : -1)
                .field("op", p.opcode() == null ? String.format("opcode 0x%02x", p.bth().opcode())
                        : p.opcode().displayName().substring(p.opcode().displayName().indexOf(' ') + 1))
                .field("psn", p.bth().psn()).field("ack", p.bth().ackRequest())
                .field("m", marks.messageOf[v.index]).field("k", marks.flags[v.index])
                .field("note", marks.notes[v.index]).field("on", v.capturedOn).field("aon", v.arrivedOn);
        j.key("d").raw(PacketJson.of(p));
        extras(j.key("x").object(), p);
        j.endObject();
    }

    /** The header fields {@link PacketJson} leaves out. */
    private static void extras(JsonOut j, DissectedPacket p) {
        // The dissector's "time" is a JSON number, which a page reads as a double: to the microsecond only.
        j.field("time", Formats.time(p.timestampNanos()));
        if (p.ethernet() != null) {
            j.key("eth").object().field("src", Formats.mac(p.ethernet().srcMac()))
                    .field("dst", Formats.mac(p.ethernet().dstMac())).field("type", p.ethernet().etherType()).endObject();
        }
        var ip = p.ip();
        j.key("ip").object().field("version", ip.version()).field("tos", ip.tos()).field("ttl", ip.ttl())
                .field("flow", ip.flowLabel()).field("flags_frag", ip.flagsFragment()).field("checksum", ip.checksum())
                .endObject();
        if (p.udp() != null) {
            j.key("udp").object().field("length", p.udp().length()).field("checksum", p.udp().checksum()).endObject();
        }
        j.field("bth_reserved6", p.bth().reserved6()).field("bth_reserved7", p.bth().reserved7());
        if (p.payload() != null) {
            int shown = Math.min(PAYLOAD_SHOWN, p.payload().length);
            j.field("payload_hex", HexFormat.ofDelimiter(" ").formatHex(p.payload(), 0, shown));
        }
        if (p.pad() != null && p.pad().length > 0) {
            j.field("pad_hex", HexFormat.ofDelimiter(" ").formatHex(p.pad()));
        }
        // 64-bit values as hex text too: a page's numbers are doubles, exact only up to 2^53.
        j.key("hex64").object();
        for (Record r : p.extensions()) {
            switch (r) {
                case HeaderFields.Reth h -> j.field("reth_va", hex64(h.virtualAddress()));
                case HeaderFields.AtomicEth h -> j.field("atomic_va", hex64(h.virtualAddress()))
                        .field("atomic_swap_add", hex64(h.swapAdd())).field("atomic_compare", hex64(h.compare()));
                case HeaderFields.AtomicAckEth h -> j.field("atomic_orig", hex64(h.originalData()));
                default -> {
                }
            }
        }
        j.endObject();
        j.field("icrc_computed", Integer.toUnsignedLong(p.icrcComputed()))
                .field("trailer", p.trailer() == null ? 0 : p.trailer().length);
        j.endObject();
    }

    private static String hex64(long value) {
        return String.format("0x%016x", value);
    }
}
