package io.jrxe.wire.capture;

import org.pcap4j.core.Pcaps;

/**
 * The native libpcap that Pcap4J reads captures with, loaded through JNA on first use.
 * <p>
 * When it cannot load, Pcap4J fails in ways that do not say so: the first call throws a
 * misleading "pcap_open_offline_with_tstamp_precision is not supported", later calls a
 * {@code NoClassDefFoundError}. Asking for the library's version first turns all of that into one
 * sentence that tells the user what to install.
 */
final class PcapLibrary {
    static final String MISSING = "reading captures needs libpcap: install the Debian package libpcap0.8 (macOS has it;"
            + " on Windows, install Npcap)";
    static final String NO_PCAP4J = "reading captures needs Pcap4J on the class path: org.pcap4j:pcap4j-core "
            + "(an optional dependency of jrxe-wire)";
    static final String NATIVE_ACCESS_DENIED =
            "reading captures needs native access: run Java with --enable-native-access=ALL-UNNAMED";

    private static volatile String version;

    private PcapLibrary() {
    }

    /** libpcap's version string; throws {@link CaptureException} when the library cannot be loaded. */
    static String version() {
        String known = version;
        if (known == null) {
            requirePcap4j();
            try {
                known = Pcaps.libVersion();
            } catch (LinkageError e) {
                throw unavailable(e);
            }
            version = known;
        }
        return known;
    }

    /** Throws {@link CaptureException} when Pcap4J's classes are not there (it is an optional dependency). */
    private static void requirePcap4j() {
        try {
            Class.forName("org.pcap4j.core.Pcaps", false, PcapLibrary.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new CaptureException(NO_PCAP4J, e);
        }
    }

    /** The user-facing failure for an error thrown while Pcap4J, JNA or libpcap was being loaded. */
    static CaptureException unavailable(Throwable failure) {
        return new CaptureException(nativeAccessDenied(failure) ? NATIVE_ACCESS_DENIED : MISSING, failure);
    }

    // Java 24+ refuses JNA's System.load when native access is denied; that is not a missing
    // libpcap, and installing one would not help. Later attempts only carry the original error as text.
    private static boolean nativeAccessDenied(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof IllegalCallerException
                    || (t.getMessage() != null && t.getMessage().contains("Illegal native access"))) {
                return true;
            }
        }
        return false;
    }
}
