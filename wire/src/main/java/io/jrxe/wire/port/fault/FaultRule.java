package io.jrxe.wire.port.fault;

import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.opcode.Operation;

import java.util.Locale;

/**
 * A targeted fault: an {@link FaultAction} done to the packets of one direction that the selectors pick, as the
 * grammar wrote it ({@link #text()}). The selectors: {@code nth} (the Nth packet of each message, 0 for any),
 * {@code op} (an opcode's name or a group's, null for any), {@code qpn} (the BTH's destination QP, -1 for any),
 * {@code probability} (of firing on a selected packet) and {@code count} (how many times at most, 0 for no limit).
 * {@code argument} is the action's: nanoseconds for delay, bytes for truncate, the RNR timer's 5-bit value for rnr.
 *
 * <p>A rule with {@code nth} fires once per packet of a QP: a go-back-N resend of a PSN it already hit goes
 * through, so that a message whose third packet is dropped completes after its retry, as on a lossy link.
 */
public record FaultRule(FaultAction action, long argument, FaultDirection direction, int nth, String op, int qpn,
                        double probability, long count, String text) {
    /** The opcode groups {@code op=} takes besides the opcodes' own names. */
    public static final String GROUPS = "send, write, read, read-resp, ack, atomic, atomic-ack, flush, cnp";

    /** Which of the 256 BTH opcodes {@code op} selects (every one when it is null). */
    public boolean[] opcodeMask() {
        boolean[] mask = new boolean[256];
        for (int code = 0; code < 256; code++) {
            Opcode o = Opcode.of(code);
            mask[code] = op == null || (o != null && selects(op, o));
        }
        return mask;
    }

    /** Whether {@code op} is an opcode name or a group that selects at least one opcode. */
    static boolean known(String op) {
        for (Opcode o : Opcode.values()) {
            if (selects(op, o)) {
                return true;
            }
        }
        return false;
    }

    private static boolean selects(String op, Opcode o) {
        String name = op.toLowerCase(Locale.ROOT);
        if (o.name().toLowerCase(Locale.ROOT).equals(name)) {
            return true;
        }
        Operation operation = o.operation();
        return switch (name) {
            case "send" -> operation == Operation.SEND;
            case "write" -> operation == Operation.RDMA_WRITE;
            case "read" -> operation == Operation.RDMA_READ_REQUEST;
            case "read-resp" -> operation == Operation.RDMA_READ_RESPONSE;
            case "ack" -> operation == Operation.ACKNOWLEDGE;
            case "atomic" -> operation == Operation.COMPARE_SWAP || operation == Operation.FETCH_ADD
                    || operation == Operation.ATOMIC_WRITE;
            case "atomic-ack" -> operation == Operation.ATOMIC_ACKNOWLEDGE;
            case "flush" -> operation == Operation.FLUSH;
            case "cnp" -> operation == Operation.CNP;
            default -> false;
        };
    }
}
