package io.jrxe.tools.view;

import io.jrxe.wire.capture.PcapngWriter;
import io.jrxe.wire.framing.LinkType;
import io.jrxe.wire.header.AethFlyweight;
import io.jrxe.wire.header.AethSyndrome;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.testing.SamplePackets;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Random;

/**
 * A long RC WRITE transfer captured at the requester, for pages of large captures: 64-byte WRITEs, an ACK every
 * {@link #ACK_EVERY} of them, and every {@link #LOSS_EVERY} frames one request lost before the capture point, then
 * sent again after the next ACK (a PSN gap and its resend: findings of the analysis).
 */
final class LongTransfer {
    static final int ACK_EVERY = 16;
    static final int LOSS_EVERY = 6_000;
    private static final String A = "127.0.21.1";
    private static final String B = "127.0.21.2";
    private static final int QP_A = 0x11;
    private static final int QP_B = 0x12;
    private static final int PORT = 49_300;

    private LongTransfer() {
    }

    /** Writes about {@code frames} frames. */
    static void write(Path file, int frames) {
        Random random = new Random(frames);
        try (PcapngWriter w = new PcapngWriter(file)) {
            int port = w.addInterface("jrxe0", LinkType.ETHERNET, 0);
            long now = 1_000_000_000L;
            int psn = 0;
            int written = 0;
            int lost = -1;
            while (written < frames) {
                if (written > 0 && written % LOSS_EVERY == 0 && lost < 0) {
                    lost = psn++; // never captured: the next request shows the gap
                }
                byte[] request = write(psn++, random);
                w.write(port, now += 1_000, request, 0, request.length, null);
                written++;
                if (psn % ACK_EVERY == 0) {
                    byte[] ack = ack(psn - 1, lost < 0 ? psn - 1 : lost - 1, random);
                    w.write(port, now += 5_000, ack, 0, ack.length, null);
                    written++;
                    if (lost >= 0) {
                        byte[] again = write(lost, random);
                        w.write(port, now += 1_000, again, 0, again.length, null);
                        written++;
                        lost = -1;
                    }
                }
            }
        }
    }

    private static byte[] write(int psn, Random random) {
        byte[] roce = SamplePackets.roce(Opcode.RC_RDMA_WRITE_ONLY, 64, random);
        new BthFlyweight().wrap(ByteBuffer.wrap(roce), 0).set(Opcode.RC_RDMA_WRITE_ONLY.code(), false, 0, 0xFFFF, QP_B,
                (psn + 1) % ACK_EVERY == 0, psn);
        return SamplePackets.frame(roce, A, B, PORT, psn & 0xFFFF);
    }

    /** The ACK of everything through {@code through} (the responder, missing a PSN, acknowledges up to it). */
    private static byte[] ack(int psn, int through, Random random) {
        byte[] roce = SamplePackets.roce(Opcode.RC_ACKNOWLEDGE, 0, random);
        ByteBuffer b = ByteBuffer.wrap(roce);
        new BthFlyweight().wrap(b, 0).set(Opcode.RC_ACKNOWLEDGE.code(), false, 0, 0xFFFF, QP_A, false, through);
        new AethFlyweight().wrap(b, BthFlyweight.LENGTH).set(AethSyndrome.ack(AethSyndrome.CREDITS_INVALID), psn);
        return SamplePackets.frame(roce, B, A, PORT, 0);
    }
}
