package io.jrxe.tools.view;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import io.jrxe.wire.dissect.DissectedPacket;
import io.jrxe.wire.dissect.Formats;
import io.jrxe.wire.dissect.HeaderFields;
import io.jrxe.wire.dissect.PacketJson;
import io.jrxe.wire.json.Json;

import java.io.IOException;
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

    /**
     * So that the text can stand inside an HTML script element: '<' escaped, so that no "</script>" or "<!--"
     * appears, and the line and paragraph separators, which older JavaScript took for line ends.
     */
    private static final CharacterEscapes SCRIPT_SAFE = new CharacterEscapes() {
        private final int[] ascii = standardAsciiEscapesForJSON();

        {
            ascii['<'] = ESCAPE_STANDARD;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public SerializableString getEscapeSequence(int c) {
            return c == 0x2028 || c == 0x2029 ? new SerializedString(String.format("\\u%04x", c)) : null;
        }
    };

    private LadderJson() {
    }

    static String of(String title, LoadedCapture capture, List<Connection> connections, LadderMarks marks) {
        return Json.text(g -> {
            g.setCharacterEscapes(SCRIPT_SAFE);
            write(g, title, capture, connections, marks);
        });
    }

    private static void write(JsonGenerator g, String title, LoadedCapture capture, List<Connection> connections,
                              LadderMarks marks) throws IOException {
        List<ViewPacket> packets = capture.packets();
        long start = packets.stream().mapToLong(v -> v.sentNanos).min().orElse(0);
        g.writeStartObject();
        g.writeStringField("file", title);
        g.writeNumberField("frames", capture.frames());
        g.writeNumberField("not_roce", capture.notRoce());
        g.writeNumberField("copies", capture.copies());
        g.writeBooleanField("truncated", capture.truncated());
        g.writeNumberField("max_packets", capture.maxPackets());
        g.writeStringField("damage", capture.damage());
        g.writeStringField("start", Formats.time(start));
        g.writeArrayFieldStart("flags");
        for (String name : LadderMarks.FLAG_NAMES) {
            g.writeString(name);
        }
        g.writeEndArray();
        connections(g, connections);
        messages(g, marks);
        g.writeArrayFieldStart("packets");
        int[] connectionOf = new int[packets.size()];
        int[] laneOf = new int[packets.size()];
        for (Connection c : connections) {
            for (int k = 0; k < c.packets.size(); k++) {
                connectionOf[c.packets.get(k).index] = c.id;
                laneOf[c.packets.get(k).index] = c.senders.get(k);
            }
        }
        for (ViewPacket v : packets) {
            packet(g, v, start, connectionOf[v.index], laneOf[v.index], marks);
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static void connections(JsonGenerator g, List<Connection> connections) throws IOException {
        g.writeArrayFieldStart("connections");
        for (Connection c : connections) {
            g.writeStartObject();
            g.writeNumberField("id", c.id);
            g.writeStringField("transport", c.transport);
            g.writeArrayFieldStart("lanes");
            for (Endpoint e : c.lanes) {
                g.writeStartObject();
                g.writeStringField("ip", e.ip());
                g.writeNumberField("qpn", e.qpn());
                g.writeStringField("qp", e.qpLabel());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("packets");
            for (ViewPacket v : c.packets) {
                g.writeNumber(v.index);
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    private static void messages(JsonGenerator g, LadderMarks marks) throws IOException {
        g.writeArrayFieldStart("messages");
        for (LadderMarks.Message m : marks.messages) {
            g.writeStartObject();
            g.writeNumberField("c", m.connection());
            g.writeNumberField("lane", m.lane());
            g.writeNumberField("first", m.first());
            g.writeNumberField("last", m.last());
            g.writeStringField("label", m.label());
            g.writeBooleanField("started", m.started());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeArrayFieldStart("rnr_waits");
        for (LadderMarks.RnrWait w : marks.rnrWaits) {
            g.writeStartObject();
            g.writeNumberField("c", w.connection());
            g.writeNumberField("lane", w.lane());
            g.writeNumberField("from", w.from());
            g.writeNumberField("to", w.to());
            g.writeStringField("timer", w.timer());
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    private static void packet(JsonGenerator g, ViewPacket v, long start, int connection, int lane, LadderMarks marks)
            throws IOException {
        DissectedPacket p = v.packet;
        g.writeStartObject();
        g.writeNumberField("i", v.index);
        g.writeNumberField("c", connection);
        g.writeNumberField("f", lane);
        g.writeNumberField("t", v.sentNanos - start);
        g.writeNumberField("a", v.arrived() ? v.arrivedNanos - start : -1);
        g.writeStringField("op", p.opcode() == null ? String.format("opcode 0x%02x", p.bth().opcode())
                : p.opcode().displayName().substring(p.opcode().displayName().indexOf(' ') + 1));
        g.writeNumberField("psn", p.bth().psn());
        g.writeBooleanField("ack", p.bth().ackRequest());
        g.writeNumberField("m", marks.messageOf[v.index]);
        g.writeNumberField("k", marks.flags[v.index]);
        g.writeStringField("note", marks.notes[v.index]);
        g.writeStringField("on", v.capturedOn);
        g.writeStringField("aon", v.arrivedOn);
        g.writeFieldName("d");
        PacketJson.write(g, p);
        g.writeFieldName("x");
        extras(g, p);
        g.writeEndObject();
    }

    /** The header fields {@link PacketJson} leaves out. */
    private static void extras(JsonGenerator g, DissectedPacket p) throws IOException {
        g.writeStartObject();
        // The dissector's "time" is a JSON number, which a page reads as a double: to the microsecond only.
        g.writeStringField("time", Formats.time(p.timestampNanos()));
        if (p.ethernet() != null) {
            g.writeObjectFieldStart("eth");
            g.writeStringField("src", Formats.mac(p.ethernet().srcMac()));
            g.writeStringField("dst", Formats.mac(p.ethernet().dstMac()));
            g.writeNumberField("type", p.ethernet().etherType());
            g.writeEndObject();
        }
        var ip = p.ip();
        g.writeObjectFieldStart("ip");
        g.writeNumberField("version", ip.version());
        g.writeNumberField("tos", ip.tos());
        g.writeNumberField("ttl", ip.ttl());
        g.writeNumberField("flow", ip.flowLabel());
        g.writeNumberField("flags_frag", ip.flagsFragment());
        g.writeNumberField("checksum", ip.checksum());
        g.writeEndObject();
        if (p.udp() != null) {
            g.writeObjectFieldStart("udp");
            g.writeNumberField("length", p.udp().length());
            g.writeNumberField("checksum", p.udp().checksum());
            g.writeEndObject();
        }
        g.writeNumberField("bth_reserved6", p.bth().reserved6());
        g.writeNumberField("bth_reserved7", p.bth().reserved7());
        if (p.payload() != null) {
            int shown = Math.min(PAYLOAD_SHOWN, p.payload().length);
            g.writeStringField("payload_hex", HexFormat.ofDelimiter(" ").formatHex(p.payload(), 0, shown));
        }
        if (p.pad() != null && p.pad().length > 0) {
            g.writeStringField("pad_hex", HexFormat.ofDelimiter(" ").formatHex(p.pad()));
        }
        // 64-bit values as hex text too: a page's numbers are doubles, exact only up to 2^53.
        g.writeObjectFieldStart("hex64");
        for (Record r : p.extensions()) {
            switch (r) {
                case HeaderFields.Reth h -> g.writeStringField("reth_va", hex64(h.virtualAddress()));
                case HeaderFields.AtomicEth h -> {
                    g.writeStringField("atomic_va", hex64(h.virtualAddress()));
                    g.writeStringField("atomic_swap_add", hex64(h.swapAdd()));
                    g.writeStringField("atomic_compare", hex64(h.compare()));
                }
                case HeaderFields.AtomicAckEth h -> g.writeStringField("atomic_orig", hex64(h.originalData()));
                default -> {
                }
            }
        }
        g.writeEndObject();
        g.writeNumberField("icrc_computed", Integer.toUnsignedLong(p.icrcComputed()));
        g.writeNumberField("trailer", p.trailer() == null ? 0 : p.trailer().length);
        g.writeEndObject();
    }

    private static String hex64(long value) {
        return String.format("0x%016x", value);
    }
}
