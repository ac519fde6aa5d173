package io.jrxe.wire.port;

import io.jrxe.wire.capture.CaptureReader;
import io.jrxe.wire.capture.CapturedFrame;
import io.jrxe.wire.capture.GoldenCaptures;
import io.jrxe.wire.dissect.DissectedPacket;
import io.jrxe.wire.dissect.Dissector;
import io.jrxe.wire.dissect.HeaderFields;
import io.jrxe.wire.opcode.Transport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The UDP source port of every packet kernel rxe sent in the golden captures is the one
 * {@link RoceSourcePort} computes: for RC from the sender's and the receiver's QP numbers, for
 * UD from the sending QP's number (the DETH's source QP).
 */
class RoceSourcePortGoldenTest {
    static List<Path> goldenFiles() {
        return GoldenCaptures.files();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldenFiles")
    void everySourcePortIsTheOneRxeWouldChoose(Path file) {
        Dissector dissector = new Dissector();
        List<DissectedPacket> packets = CaptureReader.readAll(file).stream()
                .map((CapturedFrame f) -> dissector.dissect(f.frameNumber(), f.timestampNanos(), f.data(), f.linkType()))
                .toList();
        // An RC packet names only its destination QP; the sender's is the destination QP of the packets it receives.
        Map<String, Integer> qpnAt = new HashMap<>();
        for (DissectedPacket p : packets) {
            qpnAt.put(address(p.ip().dst()), p.bth().destQpn());
        }
        for (DissectedPacket p : packets) {
            String where = file.getFileName() + " frame " + p.frame();
            int expected;
            if (p.opcode().transport() == Transport.UD) {
                expected = RoceSourcePort.datagram(p.extension(HeaderFields.Deth.class).srcQpn());
            } else {
                Integer sender = qpnAt.get(address(p.ip().src()));
                assertThat(sender).as(where + ": a packet to the sender, for its QP number").isNotNull();
                expected = RoceSourcePort.connected(sender, p.bth().destQpn());
            }
            assertThat(p.udp().srcPort()).as(where + " UDP source port").isEqualTo(expected);
        }
    }

    private static String address(byte[] ip) {
        return HexFormat.of().formatHex(ip);
    }
}
