package io.jrxe.tools.view;

import io.jrxe.wire.dissect.DissectedPacket;
import io.jrxe.wire.dissect.HeaderFields;
import io.jrxe.wire.header.AethSyndrome;
import io.jrxe.wire.opcode.MessagePosition;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.opcode.Operation;
import io.jrxe.wire.opcode.Transport;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.jrxe.wire.quantity.ByteSize.count;

/**
 * What the ladder marks on each packet and around them: the message it belongs to (FIRST to LAST
 * bracketed together), a PSN sent again (a retransmission), NAKs, RNR NAKs and the wait each one
 * starts, drops and losses, bad packets. Worked out per connection, per sending lane, in time order.
 */
final class LadderMarks {
    /** Bits of {@link #flags}; their names are the CSS classes the page colours them with. */
    static final int RETRANSMISSION = 1;
    static final int NAK = 2;
    static final int RNR_NAK = 4;
    static final int DROPPED = 8;
    static final int LOST = 16;
    static final int BAD = 32;
    static final String[] FLAG_NAMES = {"retx", "nak", "rnr", "drop", "lost", "bad"};

    /** A message: packets {@code first} to {@code last} (packet indices) sent by {@code lane} of a connection. */
    record Message(int connection, int lane, int first, int last, String label, Operation operation, boolean again) {
        /**
         * Whether the message is one its sender started: a request sent the first time. A READ's response and a
         * message sent again are bracketed on the ladder too, but started nothing new; the summary, the page's header
         * and each connection's heading count only these.
         */
        boolean started() {
            return !again && operation != Operation.RDMA_READ_RESPONSE;
        }
    }

    /** How many of the messages were started ({@link Message#started()}). */
    long startedMessages() {
        return messages.stream().filter(Message::started).count();
    }

    /** The requester on {@code lane} waiting from an RNR NAK ({@code from}) to its next packet ({@code to}, or -1). */
    record RnrWait(int connection, int lane, int from, int to, String timer) {
    }

    final int[] messageOf;
    final int[] flags;
    final String[] notes;
    final List<Message> messages = new ArrayList<>();
    final List<RnrWait> rnrWaits = new ArrayList<>();

    private LadderMarks(int packets) {
        messageOf = new int[packets];
        Arrays.fill(messageOf, -1);
        flags = new int[packets];
        notes = new String[packets];
    }

    static LadderMarks of(int packetCount, List<Connection> connections) {
        LadderMarks marks = new LadderMarks(packetCount);
        for (Connection c : connections) {
            marks.markConnection(c);
        }
        return marks;
    }

    boolean has(int packet, int flag) {
        return (flags[packet] & flag) != 0;
    }

    /** The one sending lane's open message while its packets are walked. */
    private final class OpenMessage {
        int first = -1;
        int last;
        long bytes;
        int packets;
        boolean again;
        Operation operation;
        boolean immediate;
        /** The first packet's RETH DMA length: a READ request's message size. */
        long dmaLength;

        void start(ViewPacket v, boolean retransmitted) {
            first = v.index;
            HeaderFields.Reth reth = v.packet.extension(HeaderFields.Reth.class);
            dmaLength = reth == null ? 0 : reth.dmaLength();
            bytes = 0;
            packets = 0;
            again = retransmitted;
            operation = v.packet.opcode().operation();
            immediate = false;
            add(v);
        }

        void add(ViewPacket v) {
            last = v.index;
            packets++;
            bytes += payload(v.packet);
            immediate |= v.packet.opcode().hasImmediate();
        }

        void close(Connection c, int lane, boolean complete) {
            if (first < 0) {
                return;
            }
            String label = operation.name() + " " + count(messageBytes()) + " B" + (immediate ? " + imm" : "")
                    + (packets > 1 ? " (" + packets + " pkts)" : "") + (again ? " again" : "")
                    + (complete ? "" : " (incomplete)");
            int id = messages.size();
            messages.add(new Message(c.id, lane, first, last, label, operation, again));
            for (int i = first; i <= last; i++) {
                if (messageOf[i] == -2) {
                    messageOf[i] = id;
                }
            }
            first = -1;
        }

        private long messageBytes() {
            if (operation == Operation.RDMA_READ_REQUEST) {
                return dmaLength;
            }
            return operation == Operation.COMPARE_SWAP || operation == Operation.FETCH_ADD ? 8 : bytes;
        }
    }

    private void markConnection(Connection c) {
        List<Set<Integer>> psnsSent = List.of(new HashSet<>(), new HashSet<>());
        OpenMessage[] open = {new OpenMessage(), new OpenMessage()};
        for (int k = 0; k < c.packets.size(); k++) {
            ViewPacket v = c.packets.get(k);
            int lane = c.senders.get(k);
            DissectedPacket p = v.packet;
            Opcode opcode = p.opcode();
            int i = v.index;
            note(v);
            if (opcode == null) {
                continue;
            }
            boolean sequenced = opcode.isRequest() || opcode.operation() == Operation.RDMA_READ_RESPONSE
                    || opcode.operation() == Operation.ATOMIC_ACKNOWLEDGE;
            boolean retransmitted = sequenced && opcode.transport() != Transport.UD
                    && !psnsSent.get(lane).add(p.bth().psn());
            if (retransmitted) {
                flags[i] |= RETRANSMISSION;
            }
            aeth(c, k, lane, p);
            if (!sequenced || opcode.operation() == Operation.ATOMIC_ACKNOWLEDGE) {
                continue;
            }
            messageOf[i] = -2; // in a message, which one is known when it closes
            OpenMessage m = open[lane];
            MessagePosition position = opcode.position();
            if (position == MessagePosition.FIRST || position == MessagePosition.ONLY
                    || m.first < 0 || m.operation != opcode.operation()) {
                m.close(c, lane, false);
                m.start(v, retransmitted);
            } else {
                m.add(v);
                m.again |= retransmitted;
            }
            if (position == MessagePosition.LAST || position == MessagePosition.ONLY) {
                m.close(c, lane, true);
            }
        }
        open[0].close(c, 0, false);
        open[1].close(c, 1, false);
    }

    /** NAKs and RNR NAKs, and the wait an RNR NAK starts on the other lane until that lane sends again. */
    private void aeth(Connection c, int k, int lane, DissectedPacket p) {
        HeaderFields.Aeth aeth = p.extension(HeaderFields.Aeth.class);
        if (aeth == null) {
            return;
        }
        int i = c.packets.get(k).index;
        if (AethSyndrome.isNak(aeth.syndrome())) {
            flags[i] |= NAK;
            addNote(i, AethSyndrome.describe(aeth.syndrome()));
        } else if (AethSyndrome.isRnrNak(aeth.syndrome())) {
            flags[i] |= RNR_NAK;
            String text = AethSyndrome.describe(aeth.syndrome());
            addNote(i, text);
            int requester = 1 - lane;
            int next = -1;
            for (int j = k + 1; j < c.packets.size(); j++) {
                if (c.senders.get(j) == requester) {
                    next = c.packets.get(j).index;
                    break;
                }
            }
            rnrWaits.add(new RnrWait(c.id, requester, i, next, text));
        }
    }

    private void note(ViewPacket v) {
        int i = v.index;
        if (v.dropReason != null) {
            flags[i] |= DROPPED;
            addNote(i, "dropped by the receiver: " + v.dropReason);
        }
        if (v.lost) {
            flags[i] |= LOST;
            addNote(i, "lost: never arrived, though later packets to its receiver did");
        }
        DissectedPacket p = v.packet;
        if (p.malformedReason() != null) {
            flags[i] |= BAD;
            addNote(i, "malformed: " + p.malformedReason());
        } else if (!p.icrcOk()) {
            flags[i] |= BAD;
            addNote(i, String.format("bad ICRC (stored 0x%08x, computed 0x%08x)", p.icrcStored(), p.icrcComputed()));
        }
        if (v.comment != null) {
            addNote(i, v.comment);
        }
    }

    /** Adds a note; one that a note already says, or says more of (a NAK's reason in its comment), is not repeated. */
    private void addNote(int i, String text) {
        String note = notes[i];
        if (note == null || text.startsWith(note)) {
            notes[i] = text;
        } else if (!note.contains(text)) {
            notes[i] = note + "; " + text;
        }
    }

    private static long payload(DissectedPacket p) {
        return p.payload() == null ? 0 : p.payload().length;
    }

    /** Payload bytes, for the summary: what the packet carries of its message's data. */
    static long payloadOf(ViewPacket v) {
        return payload(v.packet);
    }
}
