package io.jrxe.wire.port.shm;

import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.port.DropReason;
import io.jrxe.wire.port.MulticastJoinException;
import io.jrxe.wire.port.PacketInfo;
import io.jrxe.wire.port.PacketSink;
import io.jrxe.wire.port.PacketTap;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.sim.PacketFilter;
import io.jrxe.wire.stats.CounterRegistry;
import io.jrxe.wire.testing.SamplePackets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Shared-memory ports in one process, read by the test's thread: what one sends the other receives, with the sender's
 * address and port; its ICRC where a capture, a filter or the receiving ring needs it; what finds no ring or a full
 * one is counted; a peer that closed its ring
 * is let go and the device that takes its address is found.
 */
class ShmPortTest {
    private static final PeerAddress A = PeerAddress.of("10.38.0.1");
    private static final PeerAddress B = PeerAddress.of("10.38.0.2");
    @TempDir
    Path dir;
    private final List<ShmPort> open = new ArrayList<>();

    @AfterEach
    void close() {
        open.forEach(ShmPort::close);
    }

    private ShmPort bind(PeerAddress at) throws Exception {
        ShmPort p = ShmPort.bind(at, new ShmDirectory(dir), 1 << 16);
        open.add(p);
        return p;
    }

    @Test
    void aPacketArrivesWithItsSendersAddressPortAndAnIcrcThatChecks() throws Exception {
        ShmPort a = bind(A);
        ShmPort b = bind(B);
        Recorder got = receiving(b);
        byte[] packet = SamplePackets.roce(Opcode.RC_RDMA_WRITE_ONLY, 200, new Random(38));
        assertThat(b.hasPackets()).isFalse();
        a.send(ByteBuffer.wrap(packet), 0, packet.length, B, 50_001);
        assertThat(b.hasPackets()).isTrue();
        assertThat(b.receive(16)).isEqualTo(1);
        assertThat(b.hasPackets()).isFalse();
        assertThat(got.drops).isEmpty();
        assertThat(got.packets).hasSize(1);
        assertThat(got.sources).containsExactly(A + ":50001");
        assertThat(got.packets.getFirst()).isEqualTo(packet);
    }

    @Test
    void aTestsFilterLosesChangesOrDamagesAPacketPastTheCaptureAndOnlyAChangedOneArrivesWithAnIcrcThatChecks() throws Exception {
        ShmPort a = bind(A);
        ShmPort b = bind(B);
        Recorder got = receiving(b);
        List<PacketTap.Direction> tapped = new ArrayList<>();
        a.tap((d, s, t, sp, dp, id, roce, off, len, ts, c) -> tapped.add(d));
        byte[] packet = SamplePackets.roce(Opcode.RC_SEND_ONLY, 64, new Random(42));
        int[] seen = {0};
        a.filter((from, to, roce) -> {
            seen[0]++;
            assertThat(from).isEqualTo(A);
            assertThat(to).isEqualTo(B);
            if (seen[0] == 1) {
                return PacketFilter.Verdict.DROP;
            }
            roce[20] ^= 0x5A; // a payload byte
            return seen[0] == 2 ? PacketFilter.Verdict.MODIFIED : PacketFilter.Verdict.CORRUPTED;
        });
        a.send(ByteBuffer.wrap(packet), 0, packet.length, B, 50_005);
        assertThat(b.receive(16)).as("the lost one").isZero();
        a.send(ByteBuffer.wrap(packet), 0, packet.length, B, 50_005);
        assertThat(b.receive(16)).isEqualTo(1);
        assertThat(got.drops).as("the ICRC was written again for the change").isEmpty();
        assertThat(got.packets.getFirst()[20]).isEqualTo((byte) (packet[20] ^ 0x5A));
        assertThat(packet[20]).as("the sender's buffer, which a resend would send again").isEqualTo(
                SamplePackets.roce(Opcode.RC_SEND_ONLY, 64, new Random(42))[20]);
        assertThat(tapped).as("both left the port, as the capture shows").containsExactly(PacketTap.Direction.SENT,
                PacketTap.Direction.SENT);

        a.send(ByteBuffer.wrap(packet), 0, packet.length, B, 50_005);
        assertThat(b.receive(16)).isEqualTo(1);
        assertThat(got.packets).as("the damaged one").hasSize(1);
        assertThat(got.drops).as("its ICRC was left as it was").containsExactly(DropReason.BAD_ICRC);

        a.filter(null);
        a.send(ByteBuffer.wrap(packet), 0, packet.length, B, 50_005);
        assertThat(b.receive(16)).isEqualTo(1);
        assertThat(got.packets).hasSize(2);
        assertThat(seen[0]).isEqualTo(3);
    }

    @Test
    void aPacketNobodyWatchesTravelsWithoutItsIcrcAndACaptureOnEitherSideShowsTheRightOne() throws Exception {
        ShmPort a = bind(A);
        ShmPort b = bind(B);
        Recorder got = receiving(b);
        byte[] packet = withoutIcrc(43);
        a.send(ByteBuffer.wrap(packet.clone()), 0, packet.length, B, 50_006);
        assertThat(b.receive(16)).isEqualTo(1);
        assertThat(got.drops).as("not checked: memory changed nothing").isEmpty();
        assertThat(got.packets.getFirst()).as("its ICRC left as the NIC had it").isEqualTo(packet);

        List<byte[]> capturedOnB = capturing(b);
        a.send(ByteBuffer.wrap(packet.clone()), 0, packet.length, B, 50_006);
        assertThat(b.receive(16)).isEqualTo(1);
        assertThat(capturedOnB).hasSize(1);
        assertThat(icrcChecks(capturedOnB.getFirst(), 50_006)).as("written for the receiver's capture").isTrue();

        b.tap(null);
        List<byte[]> capturedOnA = capturing(a);
        a.send(ByteBuffer.wrap(packet.clone()), 0, packet.length, B, 50_006);
        assertThat(b.receive(16)).isEqualTo(1);
        assertThat(icrcChecks(capturedOnA.getFirst(), 50_006)).as("written for the sender's capture").isTrue();
        assertThat(got.drops).isEmpty();
        assertThat(icrcChecks(got.packets.getLast(), 50_006)).as("and it travelled with the packet").isTrue();
    }

    @Test
    void aRingThatAsksForIcrcsGetsThemAndDropsARecordWithout() throws Exception {
        ShmPort a = bind(A);
        ShmPort b = bind(B);
        Recorder got = receiving(b);
        byte[] packet = withoutIcrc(44);
        try (ShmRing bsRing = ShmRing.open(b.ringFile())) {
            bsRing.askForIcrcs();
            a.send(ByteBuffer.wrap(packet.clone()), 0, packet.length, B, 50_007);
            assertThat(b.receive(16)).isEqualTo(1);
            assertThat(got.drops).isEmpty();
            assertThat(icrcChecks(got.packets.getFirst(), 50_007)).as("stamped for the ring that asked").isTrue();

            // a record whose producer left the ICRC out, written before it saw the request (or spoiled by a late one)
            long claimed = ShmPacketRecord.claim(bsRing, packet.length);
            ShmPacketRecord.write(ShmPacketRecord.view(bsRing), (int) claimed, A.gid(), 50_007, 0, false,
                    ByteBuffer.wrap(packet), 0, packet.length);
            assertThat(bsRing.commit(claimed)).isTrue();
            assertThat(b.receive(16)).isEqualTo(1);
            assertThat(got.packets).hasSize(1);
            assertThat(got.drops).containsExactly(DropReason.BAD_ICRC);
        }
    }

    /** A SEND ONLY whose ICRC is zeroes, as a NIC's buffer may hold it before the ICRC is written. */
    private static byte[] withoutIcrc(long seed) {
        byte[] packet = SamplePackets.roce(Opcode.RC_SEND_ONLY, 64, new Random(seed));
        IcrcCalculator.write(ByteBuffer.wrap(packet), packet.length - IcrcCalculator.LENGTH, 0);
        return packet;
    }

    /** The packets {@code port}'s capture sees from now on, sent or received. */
    private static List<byte[]> capturing(ShmPort port) {
        List<byte[]> seen = new ArrayList<>();
        port.tap((d, s, t, sp, dp, id, roce, off, len, ts, c) -> {
            byte[] copy = new byte[len];
            roce.get(off, copy);
            seen.add(copy);
        });
        return seen;
    }

    /** Whether the packet's ICRC is a UDP datagram's from A's {@code sourcePort} to B, IPv4 identification 0. */
    private static boolean icrcChecks(byte[] roce, int sourcePort) {
        ByteBuffer b = ByteBuffer.wrap(roce);
        int expected = new IcrcCalculator().ipv4(A.ipv4(), B.ipv4(), 0, 0x4000, sourcePort, PeerAddress.ROCE_PORT, b, 0,
                roce.length);
        return IcrcCalculator.read(b, roce.length - IcrcCalculator.LENGTH) == expected;
    }

    @Test
    void aPacketToADeviceWithNoRingIsLostAndCountedAndARingMadeLaterIsFound() throws Exception {
        ShmPort a = bind(A);
        CounterRegistry counters = new CounterRegistry();
        a.registerCounters(counters);
        byte[] packet = SamplePackets.roce(Opcode.RC_SEND_ONLY, 64, new Random(39));
        a.send(ByteBuffer.wrap(packet), 0, packet.length, B, 50_002);
        assertThat(counters.get("jrxe_shm_peer_absent")).isEqualTo(1);

        ShmPort b = bind(B);
        Recorder got = receiving(b);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (got.packets.isEmpty()) {
            assertThat(System.nanoTime()).as("B found within 10 s").isLessThan(deadline);
            a.send(ByteBuffer.wrap(packet), 0, packet.length, B, 50_002); // looked for again after ShmPeer.OPEN_EVERY_NANOS
            b.receive(16);
        }
        assertThat(got.drops).isEmpty();
    }

    @Test
    void aFullRingDropsAndCountsWhatDoesNotFit() throws Exception {
        ShmPort a = bind(A);
        ShmPort b = bind(B);
        CounterRegistry counters = new CounterRegistry();
        a.registerCounters(counters);
        byte[] packet = SamplePackets.roce(Opcode.RC_RDMA_WRITE_ONLY, 4096, new Random(40));
        int sent = 40; // 64 KiB of ring holds 15 records of 4096 bytes and their headers
        for (int i = 0; i < sent; i++) {
            a.send(ByteBuffer.wrap(packet), 0, packet.length, B, 50_003);
        }
        Recorder got = receiving(b);
        b.receive(sent);
        assertThat(counters.get("jrxe_shm_ring_full")).isPositive();
        assertThat(got.packets.size() + counters.get("jrxe_shm_ring_full")).as("each packet arrived or was counted").isEqualTo(sent);
        assertThat(got.drops).isEmpty();
    }

    @Test
    void aPeerThatClosedItsRingIsLetGoAndItsSuccessorFound() throws Exception {
        ShmPort a = bind(A);
        ShmPort first = bind(B);
        byte[] packet = SamplePackets.roce(Opcode.RC_SEND_ONLY, 64, new Random(41));
        a.send(ByteBuffer.wrap(packet), 0, packet.length, B, 50_004);
        assertThat(first.receive(16)).isEqualTo(1);
        first.close();
        ShmPort second = bind(B);
        Recorder got = receiving(second);
        a.send(ByteBuffer.wrap(packet), 0, packet.length, B, 50_004);
        assertThat(second.receive(16)).as("the closed ring was let go at once and the new one opened").isEqualTo(1);
        assertThat(got.packets).hasSize(1);
    }

    @Test
    void aPacketToAGroupReachesEveryDeviceThatJoinedItOnceAndNoneThatLeftOrNeverJoined() throws Exception {
        PeerAddress group = PeerAddress.of("239.38.0.7");
        PeerAddress c = PeerAddress.of("10.38.0.3");
        ShmPort a = bind(A);
        ShmPort b = bind(B);
        ShmPort cPort = bind(c);
        Recorder toA = receiving(a);
        Recorder toB = receiving(b);
        Recorder toC = receiving(cPort);
        byte[] packet = SamplePackets.roce(Opcode.UD_SEND_ONLY, 100, new Random(40));

        a.send(ByteBuffer.wrap(packet), 0, packet.length, group, 50_003);
        assertThat(new ShmDirectory(dir).members(group)).isEmpty();
        b.joinGroup(group);
        cPort.joinGroup(group);
        assertThat(new ShmDirectory(dir).members(group)).containsExactlyInAnyOrder(b.ringFile(), cPort.ringFile());
        a.send(ByteBuffer.wrap(packet), 0, packet.length, group, 50_003);
        assertThat(b.receive(16)).as("only what was sent after the join").isEqualTo(1);
        assertThat(cPort.receive(16)).isEqualTo(1);
        assertThat(a.receive(16)).as("the sender never joined").isZero();
        assertThat(toB.packets).containsExactly(packet);
        assertThat(toB.destinations).containsExactly(group);
        assertThat(toB.sources).containsExactly(A + ":50003");
        assertThat(toC.packets).containsExactly(packet);
        assertThat(toB.drops).isEmpty(); // the ICRC, computed over the group as destination, checks

        // C leaves: a packet already in its ring and the next one are both not C's any more.
        a.send(ByteBuffer.wrap(packet), 0, packet.length, group, 50_003);
        cPort.leaveGroup(group);
        a.send(ByteBuffer.wrap(packet), 0, packet.length, group, 50_003);
        assertThat(b.receive(16)).isEqualTo(2);
        cPort.receive(16);
        assertThat(toC.packets).hasSize(1);
        assertThat(new ShmDirectory(dir).members(group)).containsExactly(b.ringFile());

        // A member that sends receives its own, as a joined UDP socket does with multicast loopback.
        b.send(ByteBuffer.wrap(packet), 0, packet.length, group, 50_004);
        assertThat(b.receive(16)).isEqualTo(1);
        assertThat(toB.sources).last().isEqualTo(B + ":50004");
    }

    @Test
    void aDeviceThatTakesOverTheRingOfOneThatNeverLeftIsInNoGroup() throws Exception {
        PeerAddress group = PeerAddress.of("239.38.0.8");
        ShmPort a = bind(A);
        ShmPort b = bind(B);
        b.joinGroup(group);
        // B's process dies without leaving: close() leaves, so its member file is put back as a killed process leaves it.
        Path member = dir.resolve("groups/239.38.0.8").resolve(b.ringFile().getFileName());
        b.close();
        Files.createFile(member);
        ShmPort again = bind(B);
        Recorder got = receiving(again);
        byte[] packet = SamplePackets.roce(Opcode.UD_SEND_ONLY, 64, new Random(41));
        a.send(ByteBuffer.wrap(packet), 0, packet.length, group, 50_005);
        assertThat(again.receive(16)).as("the stale membership was cleared at bind").isZero();
        assertThat(member).doesNotExist();
    }

    @Test
    void aGroupOfTheOtherFamilyIsRefusedInASentence() throws Exception {
        ShmPort a = bind(A);
        assertThatThrownBy(() -> a.joinGroup(PeerAddress.of("ff0e::38")))
                .isInstanceOf(MulticastJoinException.class).hasMessageContaining("another IP family");
    }

    /** What {@code port} receives from now on. */
    private static Recorder receiving(ShmPort port) {
        Recorder got = new Recorder();
        port.receiver(got);
        return got;
    }

    private static final class Recorder implements PacketSink {
        final List<byte[]> packets = new ArrayList<>();
        final List<String> sources = new ArrayList<>();
        final List<PeerAddress> destinations = new ArrayList<>();
        final List<DropReason> drops = new ArrayList<>();

        @Override
        public void packet(ByteBuffer buffer, int offset, int length, PacketInfo info) {
            byte[] copy = new byte[length];
            buffer.get(offset, copy);
            packets.add(copy);
            sources.add(info.source + ":" + info.sourcePort);
            destinations.add(info.destination);
        }

        @Override
        public void dropped(ByteBuffer buffer, int offset, int length, PacketInfo info, DropReason reason) {
            drops.add(reason);
        }
    }
}
