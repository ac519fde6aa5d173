package io.jrxe.tools.rdmacm;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What rping puts in its buffers: the start buffer's text (as the kernel rping's output in testdata/rxe-cm shows
 * it), the 16-byte big-endian descriptor, and where a client's jrxe NIC goes by default.
 */
class RpingBuffersTest {
    @Test
    void theStartBufferHoldsThePingsTextLettersFromOneFurtherEachPingAndEndsWithZero() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment b = arena.allocate(64);
            RpingPattern.fill(b, 0);
            assertThat(RpingPattern.cString(b)).isEqualTo("rdma-ping-0: ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqr");
            assertThat(b.get(ValueLayout.JAVA_BYTE, 63)).isZero();
            assertThat(RpingPattern.strlen(b)).isEqualTo(63);
            RpingPattern.fill(b, 2);
            assertThat(RpingPattern.cString(b)).isEqualTo("rdma-ping-2: CDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrst");
            RpingPattern.fill(b, 57);
            assertThat(RpingPattern.cString(b)).as("ping 57 starts at 'z' and wraps to 'A'").startsWith("rdma-ping-57: zABC");
            RpingPattern.fill(b, 58);
            assertThat(RpingPattern.cString(b)).as("ping 58 starts at 'A' again").startsWith("rdma-ping-58: ABC");
        }
    }

    @Test
    void aBufferOfTheSmallestSizeKeepsTheTextAsSnprintfCutsIt() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment b = arena.allocate(RpingCommand.MIN_SIZE);
            RpingPattern.fill(b, 1_000_000_000);
            assertThat(RpingPattern.cString(b)).isEqualTo("rdma-ping-1000000000: ");
            RpingPattern.fill(b, 5);
            assertThat(RpingPattern.cString(b)).isEqualTo("rdma-ping-5: FGHIJKLMN");
        }
    }

    @Test
    void theDescriptorIsBigEndianAddressRkeyAndSize() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment b = arena.allocate(RdmaInfo.BYTES);
            new RdmaInfo(0x0102030405060708L, 0x0a0b0c0d, 64).write(b);
            assertThat(b.toArray(ValueLayout.JAVA_BYTE)).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 0, 0, 0, 64);
            assertThat(RdmaInfo.read(b)).isEqualTo(new RdmaInfo(0x0102030405060708L, 0x0a0b0c0d, 64));
        }
    }

    @Test
    void aClientOfALoopbackServerTakesTheNextLoopbackAddress() throws Exception {
        assertThat(CmAddresses.clientNic(InetAddress.getByName("127.0.77.1"), "-I")).isEqualTo(InetAddress.getByName("127.0.77.2"));
        assertThat(CmAddresses.clientNic(InetAddress.getByName("127.1.2.255"), "-I")).isEqualTo(InetAddress.getByName("127.1.2.254"));
        assertThat(CmAddresses.serverNic(InetAddress.getByName("0.0.0.0"))).isEqualTo(InetAddress.getByName("127.0.0.1"));
        assertThat(CmAddresses.serverNic(InetAddress.getByName("::"))).isEqualTo(InetAddress.getByName("::1"));
        assertThat(CmAddresses.serverNic(InetAddress.getByName("127.0.77.1"))).isEqualTo(InetAddress.getByName("127.0.77.1"));
    }
}
