package io.jrxe.verbs.nativ.codec;

import io.jrxe.verbs.nativ.abi.SockAddr;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** InetSocketAddress <-> sockaddr_in / sockaddr_in6, byte for byte as the kernel reads them. */
class SockAddrCodecTest {
    private final Arena arena = Arena.ofConfined();
    private final MemorySegment storage = arena.allocate(SockAddr.STORAGE);

    @AfterEach
    void free() {
        arena.close();
    }

    @Test
    void anIpv4AddressIsASockaddrInWithPortAndAddressInNetworkOrder() throws Exception {
        storage.fill((byte) 0x5A);   // every byte is written: nothing of this may remain
        long length = SockAddrCodec.encode(new InetSocketAddress(InetAddress.getByName("10.77.0.2"), 7174), storage);
        assertThat(length).isEqualTo(16);
        byte[] family = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? new byte[] {2, 0} : new byte[] {0, 2};
        assertThat(storage.asSlice(0, 16).toArray(JAVA_BYTE)).containsExactly(
                family[0], family[1], 0x1C, 0x06, 10, 77, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0);
        assertThat(storage.asSlice(16).toArray(JAVA_BYTE)).containsOnly(0);
    }

    @Test
    void anIpv6AddressIsASockaddrIn6() throws Exception {
        long length = SockAddrCodec.encode(new InetSocketAddress(InetAddress.getByName("fd77::2"), 7471), storage);
        assertThat(length).isEqualTo(28);
        assertThat(storage.get(JAVA_BYTE, ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? 0 : 1)).isEqualTo((byte) 10);
        assertThat(storage.asSlice(2, 6).toArray(JAVA_BYTE)).containsExactly(0x1D, 0x2F, 0, 0, 0, 0);
        assertThat(storage.asSlice(8, 16).toArray(JAVA_BYTE))
                .containsExactly(0xFD - 256, 0x77, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2);
    }

    @Test
    void whatIsEncodedDecodesToTheSameAddress() throws Exception {
        for (String ip : new String[] {"10.77.0.2", "127.0.0.1", "0.0.0.0", "fd77::2", "::", "fe80::5054:ff:fe77:2"}) {
            InetSocketAddress a = new InetSocketAddress(InetAddress.getByName(ip), 65535);
            SockAddrCodec.encode(a, storage);
            assertThat(SockAddrCodec.decode(storage)).as(ip).isEqualTo(a);
        }
    }

    @Test
    void aLinkLocalAddressKeepsItsScope() throws Exception {
        InetSocketAddress a = new InetSocketAddress(java.net.Inet6Address.getByAddress(null,
                InetAddress.getByName("fe80::1").getAddress(), 3), 1);
        SockAddrCodec.encode(a, storage);
        assertThat(storage.get(java.lang.foreign.ValueLayout.JAVA_INT, SockAddr.IN6_SCOPE_ID)).isEqualTo(3);
        assertThat(((java.net.Inet6Address) SockAddrCodec.decode(storage).getAddress()).getScopeId()).isEqualTo(3);
    }

    @Test
    void noFamilyYetIsNoAddress() {
        storage.fill((byte) 0);
        assertThat(SockAddrCodec.decode(storage)).isNull();
    }

    @Test
    void aHostNameThatIsNotResolvedIsRefused() {
        assertThatThrownBy(() -> SockAddrCodec.encode(InetSocketAddress.createUnresolved("guest", 7174), storage))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not resolved to an IP address");
    }

    @Test
    void addressesAreDescribedAsProgramsPrintThem() throws Exception {
        assertThat(SockAddrCodec.describe(new InetSocketAddress(InetAddress.getByName("10.77.0.2"), 7174)))
                .isEqualTo("10.77.0.2:7174");
        assertThat(SockAddrCodec.describe(new InetSocketAddress(InetAddress.getByName("fd77::2"), 7174)))
                .isEqualTo("[fd77:0:0:0:0:0:0:2]:7174");
        assertThat(SockAddrCodec.describe(null)).isEqualTo("any");
    }
}
