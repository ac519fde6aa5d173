package io.jrxe.verbs.nativ.codec;

import io.jrxe.verbs.nativ.abi.SockAddr;

import java.lang.foreign.MemorySegment;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * Java's InetSocketAddress and C's sockaddr_in / sockaddr_in6, as librdmacm takes them and keeps
 * them in an identifier's route. The family and the IPv6 scope id are in host order, the port
 * and the address in network order.
 */
public final class SockAddrCodec {
    private SockAddrCodec() {
    }

    /**
     * Writes {@code address} at {@code storage} (a sockaddr_storage's room: every byte of it is written).
     *
     * @return the length of what was written: that of sockaddr_in or of sockaddr_in6
     * @throws IllegalArgumentException for an unresolved address (a host name, not an IP address)
     */
    public static long encode(InetSocketAddress address, MemorySegment storage) {
        if (address.isUnresolved()) {
            throw new IllegalArgumentException("address " + address + " is not resolved to an IP address");
        }
        storage.asSlice(0, SockAddr.STORAGE_SIZE).fill((byte) 0);
        storage.set(NativeOrder.BE16, SockAddr.PORT, (short) address.getPort());
        InetAddress ip = address.getAddress();
        byte[] bytes = ip.getAddress();
        if (ip instanceof Inet4Address) {
            storage.set(JAVA_SHORT, SockAddr.FAMILY, SockAddr.AF_INET);
            MemorySegment.copy(bytes, 0, storage, JAVA_BYTE, SockAddr.IN_ADDR, 4);
            return SockAddr.IN_SIZE;
        }
        storage.set(JAVA_SHORT, SockAddr.FAMILY, SockAddr.AF_INET6);
        MemorySegment.copy(bytes, 0, storage, JAVA_BYTE, SockAddr.IN6_ADDR, 16);
        storage.set(JAVA_INT, SockAddr.IN6_SCOPE_ID, ((Inet6Address) ip).getScopeId());
        return SockAddr.IN6_SIZE;
    }

    /** The address at {@code sockaddr}, or null when its family is neither AF_INET nor AF_INET6 (none yet: 0). */
    public static InetSocketAddress decode(MemorySegment sockaddr) {
        short family = sockaddr.get(JAVA_SHORT, SockAddr.FAMILY);
        int port = sockaddr.get(NativeOrder.BE16, SockAddr.PORT) & 0xFFFF;
        try {
            if (family == SockAddr.AF_INET) {
                byte[] a = sockaddr.asSlice(SockAddr.IN_ADDR, 4).toArray(JAVA_BYTE);
                return new InetSocketAddress(InetAddress.getByAddress(a), port);
            }
            if (family == SockAddr.AF_INET6) {
                byte[] a = sockaddr.asSlice(SockAddr.IN6_ADDR, 16).toArray(JAVA_BYTE);
                int scope = sockaddr.get(JAVA_INT, SockAddr.IN6_SCOPE_ID);
                return new InetSocketAddress(scope == 0 ? InetAddress.getByAddress(a) : Inet6Address.getByAddress(null, a, scope), port);
            }
        } catch (UnknownHostException e) {
            throw new IllegalStateException("a 4- or 16-byte address was refused: " + e.getMessage(), e);
        }
        return null;
    }

    /** For messages: {@code 10.77.0.2:7174}, {@code [fd77::2]:7174}, or {@code any} for null. */
    public static String describe(InetSocketAddress address) {
        if (address == null) {
            return "any";
        }
        if (address.isUnresolved()) {
            return address.getHostString() + ":" + address.getPort() + " (unresolved)";
        }
        String host = address.getAddress().getHostAddress();
        return (address.getAddress() instanceof Inet6Address ? "[" + host + "]" : host) + ":" + address.getPort();
    }
}
