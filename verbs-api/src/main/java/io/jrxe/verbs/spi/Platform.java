package io.jrxe.verbs.spi;

import java.util.Locale;

/**
 * Whether jrxe may use what only Linux has: Netty's epoll transport (recvmmsg, UDP GSO and GRO, SO_REUSEPORT), the
 * raw IPv4 transmit socket and its libc calls (Linux's constants and struct layouts), /proc, libibverbs and
 * librdmacm. Each of them is used only where {@link #linuxOnlyUnavailable()} is null; elsewhere jrxe takes the
 * portable path (NIO sockets, UDP transmit, the JVM's own figures), which is all the demo, the verbs API between jrxe
 * NICs, the tools between them, decode, view, analyze, soak and conformance need.
 *
 * <p>{@code -Djrxe.portable=true} (or the environment variable {@code JRXE_PORTABLE=true}) forces the portable path
 * on Linux too, so that the path the other systems take is run and tested where the Linux one would be chosen.
 */
public final class Platform {
    /** The system property that forces the portable path. */
    public static final String PROPERTY = "jrxe.portable";
    /** The environment variable that forces it, for launchers that cannot pass a JVM option. */
    public static final String ENVIRONMENT = "JRXE_PORTABLE";

    private Platform() {
    }

    /** Whether {@code -Djrxe.portable=true} or {@code JRXE_PORTABLE=true} asks for the portable path. */
    public static boolean portableForced() {
        String p = System.getProperty(PROPERTY);
        if (p != null) {
            return Boolean.parseBoolean(p.strip());
        }
        String e = System.getenv(ENVIRONMENT);
        return e != null && (Boolean.parseBoolean(e.strip()) || e.strip().equals("1"));
    }

    /** Whether this JVM runs on Linux. */
    public static boolean linux() {
        return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux");
    }

    /**
     * Why Linux-only pieces are not used in this JVM (the portable path is forced, or this is not Linux), or null
     * when they may be (each still checks that its own library loads).
     */
    public static String linuxOnlyUnavailable() {
        if (portableForced()) {
            return System.getProperty(PROPERTY) != null ? "portable path forced (-D" + PROPERTY + "=true)"
                    : "portable path forced (" + ENVIRONMENT + "=" + System.getenv(ENVIRONMENT) + ")";
        }
        if (!linux()) {
            return "Linux only, and this is " + System.getProperty("os.name");
        }
        return null;
    }
}
