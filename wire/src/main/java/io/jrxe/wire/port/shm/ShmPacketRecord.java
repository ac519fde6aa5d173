package io.jrxe.wire.port.shm;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One packet as the shared-memory wire carries it in a {@link ShmRing} record of type {@link #TYPE}: a
 * {@value #META}-byte head with what the IP and UDP headers would have told the receiver (the sender's 16-byte GID,
 * its UDP source port, the TOS byte, and whether the packet carries its ICRC), then the RoCEv2 packet, BTH to ICRC, as a
 * UDP datagram would hold it, but for the ICRC where the sender left it out (see {@link ShmPort}). A packet
 * sent to a multicast group is a record of type {@link #MULTICAST_TYPE}, whose head of {@value #MULTICAST_META} bytes
 * also holds the group's GID, the datagram's destination, after the same fields. Anything
 * that writes into a device's ring or reads its own writes and reads records through this class. Offsets are file
 * offsets into the ring's {@link ShmRing#buffer()}; numbers are big-endian when the buffer is.
 */
public final class ShmPacketRecord {
    /** The record type of a packet to one device; the ring reserves the others. */
    public static final int TYPE = 1;
    /** The record type of a packet to a multicast group. */
    public static final int MULTICAST_TYPE = 2;
    /**
     * Bytes of the head before the packet: GID (16), UDP source port (2), TOS (1), flags (1), and room to keep the packet
     * aligned.
     */
    public static final int META = 24;
    /** Bytes of a multicast record's head: {@link #META}'s, then the group's GID (16). */
    public static final int MULTICAST_META = META + 16;
    private static final int GID_LENGTH = 16;
    private static final int SOURCE_PORT_AT = 16;
    private static final int TOS_AT = 18;
    private static final int FLAGS_AT = 19;
    /** The flag of a record whose packet carries its ICRC; without it the ICRC's bytes are whatever the sender had there. */
    private static final int ICRC_STAMPED = 1;
    private static final int GROUP_AT = META;

    private ShmPacketRecord() {
    }

    /**
     * The ring's memory as packets are written and read: in network byte order, as the engines read a packet's
     * headers (the ring's own {@link ShmRing#buffer()} is in the machine's order). A new view: make it once per mapping.
     */
    public static ByteBuffer view(ShmRing ring) {
        return ring.buffer().duplicate().order(ByteOrder.BIG_ENDIAN);
    }

    /** Claims a record for a packet of {@code packetLength} bytes: its offset, or -1 when the ring has no room now. */
    public static long claim(ShmRing ring, int packetLength) {
        return ring.claim(TYPE, META + packetLength);
    }

    /** Claims a record for a packet of {@code packetLength} bytes to a group: its offset, or -1 when there is no room now. */
    public static long claimMulticast(ShmRing ring, int packetLength) {
        return ring.claim(MULTICAST_TYPE, MULTICAST_META + packetLength);
    }

    /** Writes a group's record claimed at {@code at} (the head, the group's GID, the packet); the caller commits it. */
    public static void writeMulticast(ByteBuffer ring, int at, byte[] sourceGid, int sourcePort, int tos, boolean icrcStamped,
                                      byte[] groupGid, ByteBuffer packet, int offset, int length) {
        writeHead(ring, at, sourceGid, sourcePort, tos, icrcStamped);
        ring.put(at + GROUP_AT, groupGid, 0, GID_LENGTH);
        ring.put(at + MULTICAST_META, packet, offset, length);
    }

    /**
     * Writes the head and the packet into the record claimed at {@code at}; the caller then commits it.
     * {@code icrcStamped}: whether the packet carries its ICRC.
     */
    public static void write(ByteBuffer ring, int at, byte[] sourceGid, int sourcePort, int tos, boolean icrcStamped,
                             ByteBuffer packet, int offset, int length) {
        writeHead(ring, at, sourceGid, sourcePort, tos, icrcStamped);
        ring.put(at + META, packet, offset, length);
    }

    private static void writeHead(ByteBuffer ring, int at, byte[] sourceGid, int sourcePort, int tos, boolean icrcStamped) {
        ring.put(at, sourceGid, 0, GID_LENGTH);
        ring.putShort(at + SOURCE_PORT_AT, (short) sourcePort);
        ring.put(at + TOS_AT, (byte) tos);
        ring.put(at + FLAGS_AT, (byte) (icrcStamped ? ICRC_STAMPED : 0));
    }

    /** Whether the packet of the record at {@code at} carries its ICRC. */
    public static boolean icrcStamped(ByteBuffer ring, int at) {
        return (ring.get(at + FLAGS_AT) & ICRC_STAMPED) != 0;
    }

    /** Whether a record of this type and payload length is a packet record at all (to a device or to a group). */
    public static boolean isPacket(int type, int recordLength) {
        return type == TYPE ? recordLength >= META : type == MULTICAST_TYPE && recordLength >= MULTICAST_META;
    }

    /** Where the group's GID starts in the multicast record at {@code at}. */
    public static int groupAt(int at) {
        return at + GROUP_AT;
    }

    /** Where the sender's GID starts in the record at {@code at}. */
    public static int gidAt(int at) {
        return at;
    }

    public static int sourcePort(ByteBuffer ring, int at) {
        return ring.getShort(at + SOURCE_PORT_AT) & 0xFFFF;
    }

    public static int tos(ByteBuffer ring, int at) {
        return ring.get(at + TOS_AT) & 0xFF;
    }

    /** Where the packet starts in the record of {@code type} at {@code at}. */
    public static int packetAt(int type, int at) {
        return at + meta(type);
    }

    /** The packet's length in a record of {@code type} and {@code recordLength} payload bytes. */
    public static int packetLength(int type, int recordLength) {
        return recordLength - meta(type);
    }

    private static int meta(int type) {
        return type == MULTICAST_TYPE ? MULTICAST_META : META;
    }
}
