package io.jrxe.wire.dissect;

import io.jrxe.wire.framing.LinkType;
import io.jrxe.wire.framing.RoceFramer;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.testing.SamplePackets;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hand-built frames for the dissector tests: RoCE packets of any length and opcode (valid or
 * not), framed like rxe's, re-wrapped in the other link types a capture may use, and a check that
 * every renderer copes with whatever the dissector returned.
 */
final class TestFrames {
    static final int ETH = RoceFramer.ETHERNET_HEADER_LENGTH;
    static final int V4_UDP = ETH + 20;
    static final int V6_UDP = ETH + 40;
    static final int V4_BTH = V4_UDP + 8;
    static final int V6_BTH = V6_UDP + 8;

    private TestFrames() {
    }

    /** A UDP payload of exactly {@code length} random bytes whose BTH has this opcode and pad count (ICRC not set). */
    static byte[] roce(int opcode, int length, int padCount, Random random) {
        byte[] packet = new byte[length];
        random.nextBytes(packet);
        new BthFlyweight().wrap(ByteBuffer.wrap(packet), 0).set(opcode, false, padCount, 0xFFFF, 0x000011, true, 4242);
        return packet;
    }

    /** Ethernet + IPv4 + UDP around a RoCE packet (at least BTH + ICRC long), with a correct ICRC. */
    static byte[] v4(byte[] roce) {
        return SamplePackets.frame(roce, "10.77.0.2", "10.77.0.3", 49152, 0x1234);
    }

    static byte[] v6(byte[] roce) {
        return SamplePackets.frame(roce, "fd77::2", "fd77::3", 49153, 0);
    }

    static void putShort(byte[] frame, int at, int value) {
        frame[at] = (byte) (value >>> 8);
        frame[at + 1] = (byte) value;
    }

    /** The Ethernet frame with one 802.1Q tag (or more) inserted after the MAC addresses. */
    static byte[] vlanTagged(byte[] ethernet, int... tpids) {
        byte[] tagged = new byte[ethernet.length + 4 * tpids.length];
        System.arraycopy(ethernet, 0, tagged, 0, 12);
        int at = 12;
        for (int tpid : tpids) {
            putShort(tagged, at, tpid);
            putShort(tagged, at + 2, 0x2000 | 77); // priority 1, VLAN 77
            at += 4;
        }
        System.arraycopy(ethernet, 12, tagged, at, ethernet.length - 12);
        return tagged;
    }

    /** The same IP packet as captured on a link of this type (the Ethernet frame's MACs reused where there is room). */
    static byte[] relink(byte[] ethernet, int linkType) {
        byte[] ip = Arrays.copyOfRange(ethernet, ETH, ethernet.length);
        int etherType = (ethernet[12] & 0xFF) << 8 | (ethernet[13] & 0xFF);
        boolean v6 = etherType == RoceFramer.ETHERTYPE_IPV6;
        ByteBuffer header;
        switch (linkType) {
            case LinkType.ETHERNET -> {
                return ethernet.clone();
            }
            case LinkType.RAW, LinkType.IPV4, LinkType.IPV6 -> {
                return ip;
            }
            case LinkType.LINUX_SLL -> {
                // packet type (0: to us), ARPHRD_ETHER, address length, 8 address bytes, protocol
                header = ByteBuffer.allocate(16).putShort((short) 0).putShort((short) 1).putShort((short) 6)
                        .put(ethernet, 6, 6).putShort((short) 0).putShort((short) etherType);
            }
            case LinkType.LINUX_SLL2 -> {
                // protocol, reserved, interface index, ARPHRD_ETHER, packet type, address length, 8 address bytes
                header = ByteBuffer.allocate(20).putShort((short) etherType).putShort((short) 0).putInt(2)
                        .putShort((short) 1).put((byte) 0).put((byte) 6).put(ethernet, 6, 6).putShort((short) 0);
            }
            case LinkType.NULL -> {
                // The address family in the capturing host's byte order: AF_INET, and Darwin's AF_INET6.
                header = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v6 ? 30 : 2);
            }
            default -> throw new IllegalArgumentException("no test framing for link type " + linkType);
        }
        byte[] frame = new byte[header.capacity() + ip.length];
        System.arraycopy(header.array(), 0, frame, 0, header.capacity());
        System.arraycopy(ip, 0, frame, header.capacity(), ip.length);
        return frame;
    }

    /**
     * Runs the three renderers on a dissected packet: none may throw, the summary is one line, the
     * detail view starts with its frame line, the JSON is strict JSON naming the same frame and kind,
     * and a malformed packet's reason shows in all three.
     */
    static void assertRenders(DissectedPacket p, String where) {
        String summary = PacketSummary.of(p);
        String detail = PacketDetail.of(p);
        String json = PacketJson.of(p);
        assertThat(summary).as(where + " summary").isNotBlank().doesNotContain("\n", "\r");
        assertThat(detail).as(where + " detail").startsWith("Frame " + p.frame() + ": ");
        assertThat(json).as(where + " JSON").doesNotContain("\n");
        Map<String, Object> object;
        try {
            object = StrictJson.parseObject(json);
        } catch (IllegalArgumentException e) {
            throw new AssertionError(where + ": " + e.getMessage(), e);
        }
        assertThat(object.get("frame")).as(where + " JSON frame").isEqualTo(new java.math.BigDecimal(p.frame()));
        assertThat(object.get("kind")).as(where + " JSON kind").isEqualTo(p.kind().name().toLowerCase());
        if (p.malformedReason() != null) {
            assertThat(summary).as(where + " summary").contains("MALFORMED: " + p.malformedReason());
            assertThat(detail).as(where + " detail").contains("MALFORMED " + p.malformedReason());
            assertThat(object.get("malformed")).as(where + " JSON").isEqualTo(p.malformedReason());
        }
    }
}
