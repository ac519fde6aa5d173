package io.jrxe.verbs.sim;

import io.jrxe.wire.header.AethFlyweight;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.header.RethFlyweight;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.opcode.ExtensionHeader;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.sim.PacketFilter;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The test's eyes and hands on the pair's wire (the simulated network, or the shared-memory wire
 * where each device's sending thread calls it, hence the locks): every packet is logged (decoded
 * enough for assertions) and rules drop or rewrite the ones they match, a given number of times.
 */
final class Wire implements PacketFilter {
    /** One packet as it left its sender (before the rules acted on it), at the pair's {@link SimPair#nanoTime}. */
    record Packet(long time, PeerAddress from, PeerAddress to, byte[] bytes, boolean dropped) {
        ByteBuffer buffer() {
            return ByteBuffer.wrap(bytes);
        }

        BthFlyweight bth() {
            return new BthFlyweight().wrap(buffer(), 0);
        }

        int opcodeCode() {
            return bytes[0] & 0xFF;
        }

        /** The opcode, or null for a code jrxe does not know. */
        Opcode opcode() {
            return Opcode.of(opcodeCode());
        }

        int psn() {
            return bth().psn();
        }

        int destQpn() {
            return bth().destQpn();
        }

        boolean ackRequest() {
            return bth().ackRequest();
        }

        boolean solicited() {
            return bth().solicitedEvent();
        }

        boolean is(Opcode op) {
            return opcodeCode() == op.code();
        }

        boolean from(SimPair.Side s) {
            return from.equals(s.address);
        }

        int syndrome() {
            Opcode op = opcode();
            return new AethFlyweight().wrap(buffer(), op.offsetOf(ExtensionHeader.AETH)).syndrome();
        }

        RethFlyweight reth() {
            return new RethFlyweight().wrap(buffer(), opcode().offsetOf(ExtensionHeader.RETH));
        }

        int payloadLength() {
            return bytes.length - opcode().headerLength() - bth().padCount() - IcrcCalculator.LENGTH;
        }

        @Override
        public String toString() {
            Opcode op = opcode();
            return String.format("%d %s>%s %s psn=%d len=%d%s", time, from, to, op == null ? "0x" + Integer.toHexString(
                    opcodeCode()) : op.displayName(), psn(), bytes.length, dropped ? " DROPPED" : "");
        }
    }

    private record Rule(Predicate<Packet> match, Consumer<byte[]> rewrite, int[] left) {
    }

    private final SimPair pair;
    private final List<Packet> packets = new ArrayList<>();
    private final List<Rule> rules = new ArrayList<>();

    private Wire(SimPair pair) {
        this.pair = pair;
    }

    static Wire on(SimPair p) {
        Wire w = new Wire(p);
        p.filter(w);
        return w;
    }

    /** Drops the next {@code times} packets that match (-1: all of them, for ever). */
    synchronized Wire drop(int times, Predicate<Packet> match) {
        rules.add(new Rule(match, null, new int[] {times}));
        return this;
    }

    /** Rewrites the next {@code times} packets that match, in place (the network recomputes the ICRC). */
    synchronized Wire rewrite(int times, Predicate<Packet> match, Consumer<byte[]> rewrite) {
        rules.add(new Rule(match, rewrite, new int[] {times}));
        return this;
    }

    synchronized void clearRules() {
        rules.clear();
    }

    @Override
    public synchronized Verdict inspect(PeerAddress from, PeerAddress to, byte[] roce) {
        Packet seen = new Packet(pair.nanoTime(), from, to, roce.clone(), false);
        for (Rule r : rules) {
            if (r.left[0] != 0 && r.match.test(seen)) {
                if (r.left[0] > 0) {
                    r.left[0]--;
                }
                if (r.rewrite == null) {
                    packets.add(new Packet(seen.time, from, to, seen.bytes, true));
                    return Verdict.DROP;
                }
                r.rewrite.accept(roce);
                packets.add(seen);
                return Verdict.MODIFIED;
            }
        }
        packets.add(seen);
        return Verdict.PASS;
    }

    /** The packets logged so far, in the order they were sent. */
    synchronized List<Packet> packets() {
        return List.copyOf(packets);
    }

    synchronized List<Packet> matching(Predicate<Packet> p) {
        return packets.stream().filter(p).toList();
    }

    synchronized long count(Predicate<Packet> p) {
        return packets.stream().filter(p).count();
    }

    static Predicate<Packet> opcode(Opcode op) {
        return p -> p.is(op);
    }

    static Predicate<Packet> fromSide(SimPair.Side s) {
        return p -> p.from(s);
    }
}
