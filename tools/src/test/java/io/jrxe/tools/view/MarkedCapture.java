package io.jrxe.tools.view;

import io.jrxe.wire.capture.PcapngWriter;
import io.jrxe.wire.framing.LinkType;
import io.jrxe.wire.header.AethFlyweight;
import io.jrxe.wire.header.AethSyndrome;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.header.NakCode;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.testing.SamplePackets;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Random;

/**
 * A jrxe-style capture (two ports, each its own pcapng interface, every packet written as sent
 * and again as received or dropped) of one RC connection that goes through everything the ladder
 * marks: a lost packet, a NAK (PSN sequence error), retransmissions, an RNR NAK and its wait, a
 * packet the receiver drops (bad ICRC), a message of three packets.
 * <p>
 * A is 127.0.19.1 QP 0x11, B is 127.0.19.2 QP 0x12. Packets (P = drawn packet index):
 * <pre>
 * P0  A->B SEND_FIRST  psn 100          arrives
 * P1  A->B SEND_MIDDLE psn 101          lost (only A's copy)
 * P2  A->B SEND_LAST   psn 102 A=1      arrives
 * P3  B->A NAK PSN sequence error psn 101
 * P4  A->B SEND_MIDDLE psn 101          retransmission, arrives
 * P5  A->B SEND_LAST   psn 102 A=1      retransmission, arrives
 * P6  B->A ACK psn 102
 * P7  A->B SEND_ONLY   psn 103 A=1      arrives
 * P8  B->A RNR NAK psn 103 (timer 14)
 * P9  A->B SEND_ONLY   psn 103 A=1      retransmission after the RNR wait, arrives
 * P10 B->A ACK psn 103
 * P11 A->B RDMA_WRITE_ONLY psn 104 A=1  received, then dropped by B: bad ICRC
 * P12 A->B RDMA_WRITE_ONLY psn 104 A=1  retransmission, arrives
 * P13 B->A ACK psn 104
 * </pre>
 */
final class MarkedCapture {
    static final int PACKETS = 14;
    /** Every packet as sent, every one but the lost one again as received, and the dropped one a third time as dropped. */
    static final int FRAMES = 14 + 13 + 1;
    static final String A = "127.0.19.1";
    static final String B = "127.0.19.2";
    static final int QP_A = 0x11;
    static final int QP_B = 0x12;
    private static final int PORT = 49_200;

    private final Random random = new Random(7);
    private PcapngWriter writer;
    private int portA;
    private int portB;
    private long now = 1_700_000_000_000_000_000L;

    private MarkedCapture() {
    }

    static void write(Path file) {
        new MarkedCapture().writeTo(file);
    }

    private void writeTo(Path file) {
        try (PcapngWriter w = new PcapngWriter(file)) {
            writer = w;
            portA = w.addInterface("jrxe0", LinkType.ETHERNET, 0);
            portB = w.addInterface("jrxe1", LinkType.ETHERNET, 0);
            byte[] first = request(Opcode.RC_SEND_FIRST, 100, false, 1024);
            byte[] middle = request(Opcode.RC_SEND_MIDDLE, 101, false, 1024);
            byte[] last = request(Opcode.RC_SEND_LAST, 102, true, 200);
            aToB(first, true);
            aToB(middle, false);
            aToB(last, true);
            bToA(ack(AethSyndrome.nak(NakCode.PSN_SEQUENCE_ERROR), 101));
            aToB(middle, true);
            aToB(last, true);
            bToA(ack(AethSyndrome.ack(AethSyndrome.CREDITS_INVALID), 102));
            byte[] only = request(Opcode.RC_SEND_ONLY, 103, true, 64);
            aToB(only, true);
            bToA(ack(AethSyndrome.rnrNak(14), 103));
            now += 1_280_000; // the RNR timer
            aToB(only, true);
            bToA(ack(AethSyndrome.ack(AethSyndrome.CREDITS_INVALID), 103));
            byte[] write = request(Opcode.RC_RDMA_WRITE_ONLY, 104, true, 32);
            aToB(write, true);
            writer.write(portB, now, write, 0, write.length, "dropped: bad ICRC");
            now += 5_000_000; // the retransmission timer
            aToB(write, true);
            bToA(ack(AethSyndrome.ack(AethSyndrome.CREDITS_INVALID), 104));
        }
    }

    private byte[] request(Opcode opcode, int psn, boolean ackRequest, int payload) {
        byte[] roce = SamplePackets.roce(opcode, payload, random);
        int pad = (4 - payload % 4) % 4;
        new BthFlyweight().wrap(ByteBuffer.wrap(roce), 0).set(opcode.code(), false, pad, 0xFFFF, QP_B, ackRequest, psn);
        return SamplePackets.frame(roce, A, B, PORT, 0);
    }

    private byte[] ack(int syndrome, int psn) {
        byte[] roce = SamplePackets.roce(Opcode.RC_ACKNOWLEDGE, 0, random);
        ByteBuffer b = ByteBuffer.wrap(roce);
        new BthFlyweight().wrap(b, 0).set(Opcode.RC_ACKNOWLEDGE.code(), false, 0, 0xFFFF, QP_A, false, psn);
        new AethFlyweight().wrap(b, BthFlyweight.LENGTH).set(syndrome, 1);
        return SamplePackets.frame(roce, B, A, PORT, 0);
    }

    /** A's packet as A's port sent it and, when it arrives, as B's port received it 10 us later. */
    private void aToB(byte[] frame, boolean arrives) {
        send(portA, portB, frame, arrives);
    }

    private void bToA(byte[] frame) {
        send(portB, portA, frame, true);
    }

    private void send(int from, int to, byte[] frame, boolean arrives) {
        now += 20_000;
        writer.write(from, now, frame, 0, frame.length, null);
        if (arrives) {
            now += 10_000;
            writer.write(to, now, frame, 0, frame.length, null);
        }
    }
}
