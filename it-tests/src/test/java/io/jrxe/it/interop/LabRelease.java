package io.jrxe.it.interop;

import java.util.Arrays;
import java.util.Locale;

/**
 * The Debian releases the lab boots ({@code lab.sh up --release}), each with its own kernel rxe,
 * rdma-core and perftest. Each release's lab has a namespace and a run directory of its own, so
 * several can be up at once: bookworm's are {@code JRXE_LAB_NETNS} and {@code JRXE_LAB_RUN} (lab.sh's
 * jrxe-lab and /run/jrxe-lab without them), the others' the same names with "-" and the release appended.
 */
enum LabRelease {
    /** Debian 12: kernel 6.1, rdma-core 44, perftest 4.5. */
    BOOKWORM(""),
    /** Debian 13: kernel 6.12, rdma-core 56.1, perftest 25.01. */
    TRIXIE("-trixie"),
    /** Debian unstable, the newest Debian kernel with rdma_rxe: kernel 7.2, rdma-core 65, perftest 25.01. */
    SID("-sid");

    /** The release of the tests that name none ({@link OnLabRelease}); bookworm unless set. */
    static final String PROPERTY = "jrxe.lab.release";

    private final String suffix;

    LabRelease(String suffix) {
        this.suffix = suffix;
    }

    /** As lab.sh's --release names it. */
    String option() {
        return name().toLowerCase(Locale.ROOT);
    }

    String netns() {
        return System.getenv().getOrDefault("JRXE_LAB_NETNS", "jrxe-lab") + suffix;
    }

    String runDirectory() {
        return System.getenv().getOrDefault("JRXE_LAB_RUN", "/run/jrxe-lab") + suffix;
    }

    /** -Djrxe.lab.release (bookworm when unset or blank). */
    static LabRelease ofUnnamed() {
        String configured = System.getProperty(PROPERTY, "").strip();
        if (configured.isEmpty()) {
            return BOOKWORM;
        }
        return Arrays.stream(values()).filter(r -> r.option().equals(configured)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("-D" + PROPERTY + " is one of "
                        + Arrays.stream(values()).map(LabRelease::option).toList() + ", not '" + configured + "'"));
    }
}
