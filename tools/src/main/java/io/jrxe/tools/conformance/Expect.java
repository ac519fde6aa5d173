package io.jrxe.tools.conformance;

import io.jrxe.wire.header.NakCode;
import io.jrxe.wire.opcode.Opcode;

import java.util.ArrayList;
import java.util.List;

/**
 * One answer a case expects from the target, PSNs relative to the case's start. Silence is no expectation at all:
 * a step with an empty list waits the whole silence timeout and fails on anything that comes.
 */
public sealed interface Expect {
    String describe();

    record Ack(int psn) implements Expect {
        public String describe() {
            return "ACK " + rel(psn);
        }
    }

    record Nak(int psn, NakCode code) implements Expect {
        public String describe() {
            return "NAK " + code.description() + " " + rel(psn);
        }
    }

    record RnrNak(int psn, int timer) implements Expect {
        public String describe() {
            return "RNR NAK timer " + timer + " " + rel(psn);
        }
    }

    /**
     * One READ response packet, whose payload must be {@code length} bytes: of the target's READ area from offset
     * {@code from} when {@code fill} is negative, else all {@code fill} (bytes the case wrote before).
     */
    record ReadResponse(int psn, Opcode opcode, int from, int length, int fill) implements Expect {
        public String describe() {
            return opcode.displayName().substring(3) + " " + rel(psn) + " " + length + " bytes";
        }

        public byte expectedByte(int i) {
            return fill < 0 ? TargetLayout.readPattern(from + i) : (byte) fill;
        }
    }

    record AtomicAck(int psn, long original) implements Expect {
        public String describe() {
            return String.format("ATOMIC ACK %s orig 0x%x", rel(psn), original);
        }
    }

    static Expect ack(int psn) {
        return new Ack(psn);
    }

    static Expect nak(int psn, NakCode code) {
        return new Nak(psn, code);
    }

    static Expect rnr(int psn) {
        return new RnrNak(psn, TargetLayout.MIN_RNR_TIMER);
    }

    static Expect atomicAck(int psn, long original) {
        return new AtomicAck(psn, original);
    }

    /** The response packets of a READ of {@code length} bytes from offset {@code from} of the READ area, at this MTU. */
    static List<Expect> read(int psn, int from, int length, int mtu) {
        return read(psn, from, length, mtu, -1);
    }

    /** The response packets of a READ of {@code length} bytes that the case filled with {@code fill} before. */
    static List<Expect> readBack(int psn, int length, int mtu, int fill) {
        return read(psn, 0, length, mtu, fill);
    }

    private static List<Expect> read(int psn, int from, int length, int mtu, int fill) {
        int packets = Math.max(1, (length + mtu - 1) / mtu);
        List<Expect> out = new ArrayList<>();
        for (int i = 0; i < packets; i++) {
            Opcode op = packets == 1 ? Opcode.RC_RDMA_READ_RESPONSE_ONLY : i == 0 ? Opcode.RC_RDMA_READ_RESPONSE_FIRST
                    : i == packets - 1 ? Opcode.RC_RDMA_READ_RESPONSE_LAST : Opcode.RC_RDMA_READ_RESPONSE_MIDDLE;
            out.add(new ReadResponse(psn + i, op, from + i * mtu, Math.min(mtu, length - i * mtu), fill));
        }
        return out;
    }

    private static String rel(int psn) {
        return psn >= 0 ? "+" + psn : Integer.toString(psn);
    }
}
