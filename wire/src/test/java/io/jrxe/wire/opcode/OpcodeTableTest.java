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
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The opcode table against IBTA table 38 written out by hand: RC 0x00-0x14, 0x16, 0x17, 0x1C
 * FLUSH, 0x1D ATOMIC WRITE; UC 0x20-0x2B; UD 0x64, 0x65; the RoCEv2 CNP 0x81. Everything else
 * is reserved (or a transport jrxe does not do: RD, XRC) and must decode to null.
 */
class OpcodeTableTest {
    /** code -> name, the extension headers after the BTH in wire order, and whether payload follows. */
    private record Row(String name, List<ExtensionHeader> headers, boolean payload) {
    }

    private static final Map<Integer, Row> TABLE_38 = new LinkedHashMap<>();

    private static void row(int code, String name, boolean payload, ExtensionHeader... headers) {
        TABLE_38.put(code, new Row(name, List.of(headers), payload));
    }

    static {
        row(0x00, "RC_SEND_FIRST", true);
        row(0x01, "RC_SEND_MIDDLE", true);
        row(0x02, "RC_SEND_LAST", true);
        row(0x03, "RC_SEND_LAST_WITH_IMMEDIATE", true, IMMDT);
        row(0x04, "RC_SEND_ONLY", true);
        row(0x05, "RC_SEND_ONLY_WITH_IMMEDIATE", true, IMMDT);
        row(0x06, "RC_RDMA_WRITE_FIRST", true, RETH);
        row(0x07, "RC_RDMA_WRITE_MIDDLE", true);
        row(0x08, "RC_RDMA_WRITE_LAST", true);
        row(0x09, "RC_RDMA_WRITE_LAST_WITH_IMMEDIATE", true, IMMDT);
        row(0x0A, "RC_RDMA_WRITE_ONLY", true, RETH);
        row(0x0B, "RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE", true, RETH, IMMDT);
        row(0x0C, "RC_RDMA_READ_REQUEST", false, RETH);
        row(0x0D, "RC_RDMA_READ_RESPONSE_FIRST", true, AETH);
        row(0x0E, "RC_RDMA_READ_RESPONSE_MIDDLE", true);
        row(0x0F, "RC_RDMA_READ_RESPONSE_LAST", true, AETH);
        row(0x10, "RC_RDMA_READ_RESPONSE_ONLY", true, AETH);
        row(0x11, "RC_ACKNOWLEDGE", false, AETH);
        row(0x12, "RC_ATOMIC_ACKNOWLEDGE", false, AETH, ATOMIC_ACK_ETH);
        row(0x13, "RC_COMPARE_SWAP", false, ATOMIC_ETH);
        row(0x14, "RC_FETCH_ADD", false, ATOMIC_ETH);
        row(0x16, "RC_SEND_LAST_WITH_INVALIDATE", true, IETH);
        row(0x17, "RC_SEND_ONLY_WITH_INVALIDATE", true, IETH);
        row(0x1C, "RC_FLUSH", false, FETH, RETH);
        row(0x1D, "RC_ATOMIC_WRITE", true, RETH);

        row(0x20, "UC_SEND_FIRST", true);
        row(0x21, "UC_SEND_MIDDLE", true);
        row(0x22, "UC_SEND_LAST", true);
        row(0x23, "UC_SEND_LAST_WITH_IMMEDIATE", true, IMMDT);
        row(0x24, "UC_SEND_ONLY", true);
        row(0x25, "UC_SEND_ONLY_WITH_IMMEDIATE", true, IMMDT);
        row(0x26, "UC_RDMA_WRITE_FIRST", true, RETH);
        row(0x27, "UC_RDMA_WRITE_MIDDLE", true);
        row(0x28, "UC_RDMA_WRITE_LAST", true);
        row(0x29, "UC_RDMA_WRITE_LAST_WITH_IMMEDIATE", true, IMMDT);
        row(0x2A, "UC_RDMA_WRITE_ONLY", true, RETH);
        row(0x2B, "UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE", true, RETH, IMMDT);

        row(0x64, "UD_SEND_ONLY", true, DETH);
        row(0x65, "UD_SEND_ONLY_WITH_IMMEDIATE", true, DETH, IMMDT);

        row(0x81, "CNP", false, CNP_RESERVED);
    }

    @Test
    void everyKnownCodeDecodesToItsOpcode() {
        TABLE_38.forEach((code, row) -> {
            Opcode opcode = Opcode.of(code);
            assertThat(opcode).as("Opcode.of(0x%02x)", code).isNotNull();
            assertThat(opcode.name()).as("name of 0x%02x", code).isEqualTo(row.name());
            assertThat(opcode.code()).as("code of %s", opcode).isEqualTo(code);
        });
    }

    @Test
    void everyOtherCodeIsNull() {
        for (int code = 0; code < 256; code++) {
            if (!TABLE_38.containsKey(code)) {
                assertThat(Opcode.of(code)).as("Opcode.of(0x%02x), reserved", code).isNull();
            }
        }
    }

    @Test
    void theTableHoldsNothingBeyondTable38() {
        assertThat(Opcode.values()).hasSameSizeAs(TABLE_38.keySet());
    }

    @Test
    void everyCodeMapsToAtMostOneOpcode() {
        Set<Integer> codes = new HashSet<>();
        for (Opcode opcode : Opcode.values()) {
            assertThat(codes.add(opcode.code())).as("code 0x%02x used twice (again by %s)", opcode.code(), opcode)
                    .isTrue();
            assertThat(opcode.code()).as("%s code", opcode).isBetween(0, 255);
        }
        for (int code = 0; code < 256; code++) {
            Opcode opcode = Opcode.of(code);
            if (opcode != null) {
                assertThat(opcode.code()).as("Opcode.of(0x%02x).code()", code).isEqualTo(code);
            }
        }
    }

    @Test
    void extensionHeadersAreThoseOfTable38InWireOrder() {
        TABLE_38.forEach((code, row) -> {
            Opcode opcode = Opcode.of(code);
            List<ExtensionHeader> actual = new java.util.ArrayList<>();
            for (int i = 0; i < opcode.headerCount(); i++) {
                actual.add(opcode.header(i));
            }
            assertThat(actual).as("headers of %s", opcode).isEqualTo(row.headers());
            for (ExtensionHeader header : ExtensionHeader.values()) {
                assertThat(opcode.has(header)).as("%s has %s", opcode, header).isEqualTo(row.headers().contains(header));
                assertThat(header.in(opcode.headerMask())).as("%s mask has %s", opcode, header)
                        .isEqualTo(row.headers().contains(header));
            }
        });
    }

    @Test
    void payloadIsCarriedExactlyWhereTable38SaysSo() {
        TABLE_38.forEach((code, row) ->
                assertThat(Opcode.of(code).hasPayload()).as("hasPayload of %s", row.name()).isEqualTo(row.payload()));
    }
}
