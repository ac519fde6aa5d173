package io.jrxe.wire.icrc;

import io.jrxe.wire.dissect.Dissector;
import io.jrxe.wire.framing.LinkType;
import io.jrxe.wire.framing.RoceFramer;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.testing.SamplePackets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every single-bit change in the bytes the ICRC covers must make the check fail, and a change in
 * a field the ICRC masks (IP TOS/TTL/checksum or traffic class/flow label/hop limit, the UDP
 * checksum, BTH byte 4) must not.
 */
class IcrcBitFlipTest {
    private final Dissector dissector = new Dissector();

    @ParameterizedTest(name = "{0} -> {1}, {2}")
    @CsvSource({
        "10.77.0.2, 10.77.0.3, RC_SEND_ONLY",
        "10.77.0.2, 10.77.0.3, RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE",
        "fd77::2, fd77::3, RC_ATOMIC_ACKNOWLEDGE",
        "fd77::2, fd77::3, UD_SEND_ONLY_WITH_IMMEDIATE",
    })
    void everyCoveredBitIsProtectedAndEveryMaskedBitIsNot(String src, String dst, Opcode opcode) {
        byte[] frame = SamplePackets.frame(SamplePackets.roce(opcode, 37, new Random(7)), src, dst, 49200, 0x1234);
        assertThat(dissector.dissect(1, 0, frame, LinkType.ETHERNET).icrcOk()).isTrue();

        boolean v6 = src.contains(":");
        int ip = RoceFramer.ETHERNET_HEADER_LENGTH;
        int udp = ip + (v6 ? IcrcCalculator.IPV6_HEADER_LENGTH : IcrcCalculator.IPV4_HEADER_LENGTH);
        int bth = udp + IcrcCalculator.UDP_HEADER_LENGTH;
        Set<Integer> maskedBytes = v6
                ? Set.of(ip + 1, ip + 2, ip + 3, ip + 7, udp + 6, udp + 7, bth + 4)
                : Set.of(ip + 1, ip + 8, ip + 10, ip + 11, udp + 6, udp + 7, bth + 4);

        int protectedFlips = 0;
        for (int at = ip; at < frame.length; at++) {
            for (int bit = 0; bit < 8; bit++) {
                if (v6 && at == ip && bit >= 4) {
                    continue; // the version nibble: a flip there makes the frame not IPv6 at all (checked below)
                }
                byte[] flipped = frame.clone();
                flipped[at] ^= (byte) (1 << bit);
                boolean ok = dissector.dissect(1, 0, flipped, LinkType.ETHERNET).icrcOk();
                if (maskedBytes.contains(at) || (v6 && at == ip && bit < 4)) {
                    assertThat(ok).as("flip of masked byte %d bit %d", at, bit).isTrue();
                } else {
                    assertThat(ok).as("flip of covered byte %d bit %d", at, bit).isFalse();
                    protectedFlips++;
                }
            }
        }
        // IPv6: the first byte holds the version (skipped) and the top of the traffic class (masked).
        int expectedProtected = (frame.length - ip - maskedBytes.size()) * 8 - (v6 ? 8 : 0);
        assertThat(protectedFlips).isEqualTo(expectedProtected);
        byte[] notIp = frame.clone();
        notIp[ip] ^= (byte) 0x80;
        assertThat(dissector.dissect(1, 0, notIp, LinkType.ETHERNET).icrcOk()).isFalse();
    }
}
