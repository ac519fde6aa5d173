package io.jrxe.wire.opcode;

import static io.jrxe.wire.opcode.ExtensionHeader.AETH;
import static io.jrxe.wire.opcode.ExtensionHeader.ATOMIC_ACK_ETH;
import static io.jrxe.wire.opcode.ExtensionHeader.ATOMIC_ETH;
import static io.jrxe.wire.opcode.ExtensionHeader.CNP_RESERVED;
import static io.jrxe.wire.opcode.ExtensionHeader.DETH;
import static io.jrxe.wire.opcode.ExtensionHeader.FETH;
import static io.jrxe.wire.opcode.ExtensionHeader.IETH;
import static io.jrxe.wire.opcode.ExtensionHeader.IMMDT;
import static io.jrxe.wire.opcode.ExtensionHeader.RETH;
import static io.jrxe.wire.opcode.MessagePosition.FIRST;
import static io.jrxe.wire.opcode.MessagePosition.LAST;
import static io.jrxe.wire.opcode.MessagePosition.MIDDLE;
import static io.jrxe.wire.opcode.MessagePosition.ONLY;
import static io.jrxe.wire.opcode.Operation.ACKNOWLEDGE;
import static io.jrxe.wire.opcode.Operation.ATOMIC_ACKNOWLEDGE;
import static io.jrxe.wire.opcode.Operation.ATOMIC_WRITE;
import static io.jrxe.wire.opcode.Operation.COMPARE_SWAP;
import static io.jrxe.wire.opcode.Operation.FETCH_ADD;
import static io.jrxe.wire.opcode.Operation.FLUSH;
import static io.jrxe.wire.opcode.Operation.RDMA_READ_REQUEST;
import static io.jrxe.wire.opcode.Operation.RDMA_READ_RESPONSE;
import static io.jrxe.wire.opcode.Operation.RDMA_WRITE;
import static io.jrxe.wire.opcode.Operation.SEND;
import static io.jrxe.wire.opcode.Transport.RC;
import static io.jrxe.wire.opcode.Transport.UC;
import static io.jrxe.wire.opcode.Transport.UD;

/**
 * The BTH opcode table as data (IBTA 9.2.1 table 38, plus the RoCEv2 CNP and the RC FLUSH and
 * ATOMIC WRITE extensions). For each opcode: its transport, the operation it belongs to, its
 * place in a message, the extension headers that follow the BTH (in wire order), whether it
 * carries payload, and whether it is a request or a response. Engines and the dissector read
 * this table instead of testing opcode numbers.
 */
public enum Opcode {
    RC_SEND_FIRST(0x00, RC, SEND, FIRST, true),
    RC_SEND_MIDDLE(0x01, RC, SEND, MIDDLE, true),
    RC_SEND_LAST(0x02, RC, SEND, LAST, true),
    RC_SEND_LAST_WITH_IMMEDIATE(0x03, RC, SEND, LAST, true, IMMDT),
    RC_SEND_ONLY(0x04, RC, SEND, ONLY, true),
    RC_SEND_ONLY_WITH_IMMEDIATE(0x05, RC, SEND, ONLY, true, IMMDT),
    RC_RDMA_WRITE_FIRST(0x06, RC, RDMA_WRITE, FIRST, true, RETH),
    RC_RDMA_WRITE_MIDDLE(0x07, RC, RDMA_WRITE, MIDDLE, true),
    RC_RDMA_WRITE_LAST(0x08, RC, RDMA_WRITE, LAST, true),
    RC_RDMA_WRITE_LAST_WITH_IMMEDIATE(0x09, RC, RDMA_WRITE, LAST, true, IMMDT),
    RC_RDMA_WRITE_ONLY(0x0A, RC, RDMA_WRITE, ONLY, true, RETH),
    RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE(0x0B, RC, RDMA_WRITE, ONLY, true, RETH, IMMDT),
    RC_RDMA_READ_REQUEST(0x0C, RC, RDMA_READ_REQUEST, ONLY, false, RETH),
    RC_RDMA_READ_RESPONSE_FIRST(0x0D, RC, RDMA_READ_RESPONSE, FIRST, true, AETH),
    RC_RDMA_READ_RESPONSE_MIDDLE(0x0E, RC, RDMA_READ_RESPONSE, MIDDLE, true),
    RC_RDMA_READ_RESPONSE_LAST(0x0F, RC, RDMA_READ_RESPONSE, LAST, true, AETH),
    RC_RDMA_READ_RESPONSE_ONLY(0x10, RC, RDMA_READ_RESPONSE, ONLY, true, AETH),
    RC_ACKNOWLEDGE(0x11, RC, ACKNOWLEDGE, ONLY, false, AETH),
    RC_ATOMIC_ACKNOWLEDGE(0x12, RC, ATOMIC_ACKNOWLEDGE, ONLY, false, AETH, ATOMIC_ACK_ETH),
    RC_COMPARE_SWAP(0x13, RC, COMPARE_SWAP, ONLY, false, ATOMIC_ETH),
    RC_FETCH_ADD(0x14, RC, FETCH_ADD, ONLY, false, ATOMIC_ETH),
    RC_SEND_LAST_WITH_INVALIDATE(0x16, RC, SEND, LAST, true, IETH),
    RC_SEND_ONLY_WITH_INVALIDATE(0x17, RC, SEND, ONLY, true, IETH),
    RC_FLUSH(0x1C, RC, FLUSH, ONLY, false, FETH, RETH),
    /** Carries exactly 8 bytes of payload, written atomically at the RETH's address. */
    RC_ATOMIC_WRITE(0x1D, RC, ATOMIC_WRITE, ONLY, true, RETH),

    UC_SEND_FIRST(0x20, UC, SEND, FIRST, true),
    UC_SEND_MIDDLE(0x21, UC, SEND, MIDDLE, true),
    UC_SEND_LAST(0x22, UC, SEND, LAST, true),
    UC_SEND_LAST_WITH_IMMEDIATE(0x23, UC, SEND, LAST, true, IMMDT),
    UC_SEND_ONLY(0x24, UC, SEND, ONLY, true),
    UC_SEND_ONLY_WITH_IMMEDIATE(0x25, UC, SEND, ONLY, true, IMMDT),
    UC_RDMA_WRITE_FIRST(0x26, UC, RDMA_WRITE, FIRST, true, RETH),
    UC_RDMA_WRITE_MIDDLE(0x27, UC, RDMA_WRITE, MIDDLE, true),
    UC_RDMA_WRITE_LAST(0x28, UC, RDMA_WRITE, LAST, true),
    UC_RDMA_WRITE_LAST_WITH_IMMEDIATE(0x29, UC, RDMA_WRITE, LAST, true, IMMDT),
    UC_RDMA_WRITE_ONLY(0x2A, UC, RDMA_WRITE, ONLY, true, RETH),
    UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE(0x2B, UC, RDMA_WRITE, ONLY, true, RETH, IMMDT),

    UD_SEND_ONLY(0x64, UD, SEND, ONLY, true, DETH),
    UD_SEND_ONLY_WITH_IMMEDIATE(0x65, UD, SEND, ONLY, true, DETH, IMMDT),

    CNP(0x81, Transport.CNP, Operation.CNP, ONLY, false, CNP_RESERVED);

    private static final Opcode[] BY_CODE = new Opcode[256];
    static {
        for (Opcode opcode : values()) {
            BY_CODE[opcode.code] = opcode;
        }
    }

    private final int code;
    private final Transport transport;
    private final Operation operation;
    private final MessagePosition position;
    private final boolean payload;
    private final int headerMask;
    private final ExtensionHeader[] headers;
    private final int headerLength;
    private final int[] headerOffsets = new int[ExtensionHeader.values().length];

    Opcode(int code, Transport transport, Operation operation, MessagePosition position, boolean payload,
           ExtensionHeader... headers) {
        this.code = code;
        this.transport = transport;
        this.operation = operation;
        this.position = position;
        this.payload = payload;
        this.headers = headers;
        this.headerMask = ExtensionHeader.mask(headers);
        java.util.Arrays.fill(headerOffsets, -1);
        int length = io.jrxe.wire.header.BthFlyweight.LENGTH;
        for (ExtensionHeader header : headers) {
            headerOffsets[header.ordinal()] = length;
            length += header.length();
        }
        this.headerLength = length;
    }

    /** The opcode with this 8-bit code, or null when the code is reserved or not supported. */
    public static Opcode of(int code) {
        return BY_CODE[code & 0xFF];
    }

    public int code() {
        return code;
    }

    public Transport transport() {
        return transport;
    }

    public Operation operation() {
        return operation;
    }

    public MessagePosition position() {
        return position;
    }

    public boolean hasPayload() {
        return payload;
    }

    public boolean has(ExtensionHeader header) {
        return header.in(headerMask);
    }

    public int headerMask() {
        return headerMask;
    }

    /** Number of extension headers this opcode carries. */
    public int headerCount() {
        return headers.length;
    }

    /** The i-th extension header after the BTH, in wire order. */
    public ExtensionHeader header(int index) {
        return headers[index];
    }

    /** Bytes from the start of the BTH to the first payload byte (BTH plus every extension header). */
    public int headerLength() {
        return headerLength;
    }

    /** Offset of an extension header from the start of the BTH, or -1 when this opcode does not carry it. */
    public int offsetOf(ExtensionHeader header) {
        return headerOffsets[header.ordinal()];
    }

    /** Responses travel from responder to requester: read responses and (atomic) acknowledgements. */
    public boolean isResponse() {
        return operation == RDMA_READ_RESPONSE || operation == ACKNOWLEDGE || operation == ATOMIC_ACKNOWLEDGE;
    }

    public boolean isRequest() {
        return !isResponse() && transport != Transport.CNP;
    }

    public boolean hasImmediate() {
        return has(IMMDT);
    }

    public boolean hasInvalidate() {
        return has(IETH);
    }

    /** Name as Wireshark and rxe spell it, e.g. "RC SEND_ONLY_WITH_IMMEDIATE". */
    public String displayName() {
        String n = name();
        return transport == Transport.CNP ? "CNP" : n.substring(0, 2) + " " + n.substring(3);
    }
}
