package io.jrxe.tools.decode;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;

/**
 * A second opinion that shares no code with jrxe: reads a classic pcap of Ethernet frames byte by
 * byte, tells which frames are UDP to port 4791, and checks their ICRC exactly as
 * testdata/rxe/README.md describes it (CRC-32 over eight 0xFF bytes, the masked IP and UDP headers, the
 * BTH with byte 4 masked, the rest up to the ICRC, stored least significant byte first).
 */
final class IndependentPcap {
    private static final int ETHERNET = 14;

    private IndependentPcap() {
    }

    /** The frames of a classic pcap (either byte order, micro- or nanosecond) of link type Ethernet. */
    static List<byte[]> frames(Path file) {
        byte[] all;
        try {
            all = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ByteBuffer b = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
        int magic = b.getInt(0);
        if (magic != 0xA1B2C3D4 && magic != 0xA1B23C4D) {
            b.order(ByteOrder.BIG_ENDIAN);
            magic = b.getInt(0);
            if (magic != 0xA1B2C3D4 && magic != 0xA1B23C4D) {
                throw new IllegalArgumentException(file + " is not a classic pcap");
            }
        }
        if ((b.getInt(20) & 0xFFFF) != 1) {
            throw new IllegalArgumentException(file + " is not an Ethernet capture");
        }
        List<byte[]> frames = new ArrayList<>();
        for (int at = 24; at < all.length; ) {
            int captured = b.getInt(at + 8);
            frames.add(Arrays.copyOfRange(all, at + 16, at + 16 + captured));
            at += 16 + captured;
        }
        return frames;
    }

    /** The UDP destination port of an Ethernet frame carrying IPv4 or IPv6, or -1 when it is not UDP. */
    static int udpDestinationPort(byte[] frame) {
        int udp = udpOffset(frame);
        return udp < 0 ? -1 : u16(frame, udp + 2);
    }

    static boolean icrcOk(byte[] frame) {
        int udp = udpOffset(frame);
        boolean v4 = u16(frame, 12) == 0x0800;
        int ipLength = v4 ? u16(frame, ETHERNET + 2) : 40 + u16(frame, ETHERNET + 4);
        int end = ETHERNET + ipLength;
        ByteArrayOutputStream covered = new ByteArrayOutputStream();
        for (int i = 0; i < 8; i++) {
            covered.write(0xFF);
        }
        byte[] ip = Arrays.copyOfRange(frame, ETHERNET, udp);
        if (v4) {
            ip[1] = (byte) 0xFF;                       // TOS
            ip[8] = (byte) 0xFF;                       // TTL
            ip[10] = (byte) 0xFF;                      // header checksum
            ip[11] = (byte) 0xFF;
        } else {
            ip[0] |= 0x0F;                             // traffic class and flow label
            ip[1] = (byte) 0xFF;
            ip[2] = (byte) 0xFF;
            ip[3] = (byte) 0xFF;
            ip[7] = (byte) 0xFF;                       // hop limit
        }
        covered.writeBytes(ip);
        byte[] udpAndBth = Arrays.copyOfRange(frame, udp, udp + 8 + 12);
        udpAndBth[6] = (byte) 0xFF;                    // UDP checksum
        udpAndBth[7] = (byte) 0xFF;
        udpAndBth[8 + 4] = (byte) 0xFF;                // BTH FECN, BECN, reserved
        covered.writeBytes(udpAndBth);
        covered.write(frame, udp + 8 + 12, end - 4 - (udp + 8 + 12));
        CRC32 crc = new CRC32();
        crc.update(covered.toByteArray());
        int stored = ByteBuffer.wrap(frame, end - 4, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        return (int) crc.getValue() == stored;
    }

    private static int udpOffset(byte[] frame) {
        int etherType = u16(frame, 12);
        if (etherType == 0x0800 && frame[ETHERNET + 9] == 17) {
            return ETHERNET + (frame[ETHERNET] & 0x0F) * 4;
        }
        if (etherType == 0x86DD && frame[ETHERNET + 6] == 17) {
            return ETHERNET + 40;
        }
        return -1;
    }

    private static int u16(byte[] b, int at) {
        return (b[at] & 0xFF) << 8 | (b[at + 1] & 0xFF);
    }
}
