package io.jrxe.wire.header;

import static org.assertj.core.api.Assertions.assertThat;

import io.jrxe.wire.capture.GoldenCaptures;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * BTH and RETH of a packet a real kernel rxe sent: the first RDMA WRITE FIRST of the golden
 * capture guest_write_bw.pcap (frame 1; tshark: opcode 6, P_Key 65535, dest QP 0x000013,
 * A=0, PSN 899513; RETH VA 0x000056490d056000, R_Key 0x000004f8, DMA length 8192).
 */
class GoldenWriteFirstHeadersTest {
    private static final byte[] BTH_AND_RETH = bytes(
            // BTH: opcode, SE/M/pad/TVer, P_Key, FECN/BECN/reserved, dest QP, A/reserved, PSN
            0x06, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x13, 0x00, 0x0d, 0xb9, 0xb9,
            // RETH: VA, R_Key, DMA length
            0x00, 0x00, 0x56, 0x49, 0x0d, 0x05, 0x60, 0x00, 0x00, 0x00, 0x04, 0xf8, 0x00, 0x00, 0x20, 0x00);

    private static final int OFFSET = 42; // where the BTH sits in an Ethernet/IPv4/UDP frame

    @Test
    void flyweightsDecodeTheCapturedHeaders() {
        ByteBuffer frame = ByteBuffer.allocateDirect(OFFSET + BTH_AND_RETH.length).put(OFFSET, BTH_AND_RETH);
        BthFlyweight bth = new BthFlyweight().wrap(frame, OFFSET);
        RethFlyweight reth = new RethFlyweight().wrap(frame, OFFSET + BthFlyweight.LENGTH);

        assertThat(bth.opcode()).isEqualTo(6);
        assertThat(bth.solicitedEvent()).isFalse();
        assertThat(bth.migReq()).isFalse();
        assertThat(bth.padCount()).isZero();
        assertThat(bth.transportVersion()).isZero();
        assertThat(bth.pkey()).isEqualTo(65535);
        assertThat(bth.fecn()).isFalse();
        assertThat(bth.becn()).isFalse();
        assertThat(bth.reserved6()).isZero();
        assertThat(bth.destQpn()).isEqualTo(0x000013);
        assertThat(bth.ackRequest()).isFalse();
        assertThat(bth.reserved7()).isZero();
        assertThat(bth.psn()).isEqualTo(899513);
        assertThat(reth.virtualAddress()).isEqualTo(0x000056490d056000L);
        assertThat(reth.rkey()).isEqualTo(0x000004f8);
        assertThat(reth.dmaLength()).isEqualTo(8192);
    }

    @Test
    void wholeHeaderSettersEncodeTheCapturedBytes() {
        ByteBuffer frame = ByteBuffer.allocateDirect(OFFSET + BTH_AND_RETH.length);
        new BthFlyweight().wrap(frame, OFFSET).set(6, false, 0, 65535, 0x000013, false, 899513);
        new RethFlyweight().wrap(frame, OFFSET + BthFlyweight.LENGTH).set(0x000056490d056000L, 0x000004f8, 8192);

        assertThat(headerBytes(frame)).isEqualTo(BTH_AND_RETH);
    }

    @Test
    void perFieldSettersEncodeTheCapturedBytes() {
        ByteBuffer frame = ByteBuffer.allocate(OFFSET + BTH_AND_RETH.length);
        Arrays.fill(frame.array(), (byte) 0xA5);
        new BthFlyweight().wrap(frame, OFFSET).opcode(6).solicitedEvent(false).migReq(false).padCount(0)
                .transportVersion(0).pkey(65535).fecn(false).becn(false).reserved6(0).destQpn(0x13)
                .ackRequest(false).reserved7(0).psn(899513);
        new RethFlyweight().wrap(frame, OFFSET + BthFlyweight.LENGTH)
                .virtualAddress(0x000056490d056000L).rkey(0x000004f8).dmaLength(8192);

        assertThat(headerBytes(frame)).isEqualTo(BTH_AND_RETH);
        assertThat(Arrays.copyOf(frame.array(), OFFSET)).as("bytes before the BTH").containsOnly((byte) 0xA5);
    }

    /** Guards the literal above against a typo: these 28 bytes really are in the capture. */
    @Test
    void theLiteralBytesAreInTheGoldenCapture() throws IOException {
        Path capture = GoldenCaptures.file("guest_write_bw.pcap");
        byte[] pcap = Files.readAllBytes(capture);

        assertThat(indexOf(pcap, BTH_AND_RETH)).as("position of the BTH+RETH in %s", capture).isPositive();
    }

    private static byte[] headerBytes(ByteBuffer frame) {
        byte[] out = new byte[BTH_AND_RETH.length];
        frame.get(OFFSET, out);
        return out;
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        return -1;
    }

    private static byte[] bytes(int... values) {
        byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (byte) values[i];
        }
        return out;
    }
}
