package io.jrxe.wire.port.raw;

import io.jrxe.wire.icrc.Ipv4IdentificationSolver;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.testing.SamplePackets;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two real ports on 127.0.3.1 and 127.0.3.2, A sending through the raw socket: raw IP packets to
 * a loopback address reach B's UDP socket on 4791, carry the identifications A chose (nonzero,
 * incrementing), and B's ICRC check solves for exactly those.
 */
class RawTransmitLoopbackTest {
    private static final int PACKETS = 200;

    @BeforeAll
    static void needsRawSocket() {
        RawPrivilege.assumeRawSocket();
    }

    @Test
    void packetsArriveWithTheIdentificationsJrxeChose() throws Exception {
        Random random = new Random(7);
        List<byte[]> packets = new ArrayList<>();
        Opcode[] opcodes = Opcode.values();
        int[] sizes = {0, 1, 4, 255, 1024, 4096};
        for (int i = 0; i < PACKETS; i++) {
            packets.add(SamplePackets.roce(opcodes[i % opcodes.length], sizes[i % sizes.length], random));
        }
        List<Integer> chosen = Collections.synchronizedList(new ArrayList<>());
        try (LoopbackPorts ports = LoopbackPorts.open("127.0.3.1", "127.0.3.2", RawSocketOpener.system())) {
            assertThat(ports.a.transmitPath()).isEqualTo(TransmitPath.RAW);
            ports.a.tap((direction, source, destination, sourcePort, destinationPort, identification, roce, offset,
                         length, timestampNanos, comment) -> chosen.add(identification));

            ports.send(packets, 49_999);
            List<LoopbackPorts.Received> received = ports.awaitReceived(PACKETS, 10_000);

            assertThat(ports.drops()).isEmpty();
            assertThat(received).hasSize(PACKETS);
            assertThat(ports.a.rawTransmitDrops()).isZero();
            assertThat(chosen).hasSize(PACKETS).doesNotContain(0);
            for (int i = 1; i < PACKETS; i++) {
                assertThat(chosen.get(i)).as("identification %d follows %d", i, i - 1).isEqualTo(chosen.get(i - 1) + 1);
            }
            Ipv4IdentificationSolver solver = new Ipv4IdentificationSolver();
            PeerAddress from = ports.a.localAddress();
            PeerAddress to = ports.b.localAddress();
            for (int i = 0; i < PACKETS; i++) {
                LoopbackPorts.Received r = received.get(i);
                assertThat(r.roce()).as("packet %d, ICRC aside", i).startsWith(withoutIcrc(packets.get(i)));
                assertThat(r.sourcePort()).isEqualTo(49_999);
                assertThat(r.source()).isEqualTo("127.0.3.1");
                assertThat(r.identification()).as("solved identification of packet %d", i).isEqualTo(chosen.get(i));
                assertThat(solver.solve(from.ipv4(), to.ipv4(), 0x4000, 49_999, PeerAddress.ROCE_PORT,
                        ByteBuffer.wrap(r.roce()), 0, r.roce().length)).isEqualTo(chosen.get(i));
            }
        }
    }

    private static byte[] withoutIcrc(byte[] packet) {
        return java.util.Arrays.copyOf(packet, packet.length - 4);
    }
}
