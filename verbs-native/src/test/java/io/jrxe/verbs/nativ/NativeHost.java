package io.jrxe.verbs.nativ;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What this machine offers the native provider: libibverbs or not, RDMA devices in the kernel
 * or not. Shared (through this module's test jar) by the tests that need to know, here and in
 * verbs-facade and it-tests.
 */
public final class NativeHost {
    private NativeHost() {
    }

    /** True when the kernel lists an RDMA device (rxe0, ...). */
    public static boolean kernelHasDevices() {
        Path dir = Path.of("/sys/class/infiniband");
        try (var s = Files.list(dir)) {
            return s.findAny().isPresent();
        } catch (IOException e) {
            return false;
        }
    }

    /** Skips the calling test, saying so, when libibverbs is not installed. */
    public static void assumeLibibverbs() {
        assumeLibrary("libibverbs.so.1", "libibverbs1");
    }

    /** Skips the calling test, saying so, when librdmacm is not installed. */
    public static void assumeLibrdmacm() {
        assumeLibrary("librdmacm.so.1", "librdmacm1");
    }

    private static void assumeLibrary(String soname, String debianPackage) {
        boolean installed = Files.exists(Path.of("/usr/lib/x86_64-linux-gnu", soname))
                || Files.exists(Path.of("/usr/lib/aarch64-linux-gnu", soname));
        String reason = soname + " is not installed (Debian package " + debianPackage + ")";
        if (!installed) {
            System.err.println("SKIPPED: " + reason);
        }
        Assumptions.assumeTrue(installed, reason);
    }
}
