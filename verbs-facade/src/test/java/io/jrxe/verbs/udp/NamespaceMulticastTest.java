package io.jrxe.verbs.udp;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * UD multicast between devices on two interfaces, IPv4 and IPv6: lo carries no IPv6 multicast (it has no route
 * to ff00::/8) and one interface cannot show that a device takes only what arrives on its own, so the test makes a
 * network namespace of its own (unshare -n, root only) with a veth pair, and runs {@link NamespaceMulticastProgram}
 * in it. The namespace, its interfaces and every packet vanish with the program.
 */
class NamespaceMulticastTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "IPv4, 239.192.7.7, 10.99.0.1, 10.99.0.2, 10.99.0.3",
        "IPv6, ff0e::7:7, fd99::1, fd99::2, fd99::3",
        "IPv6 link scope, ff02::7:7, fd99::1, fd99::2, fd99::3"})
    void everyAttachedQpOnEitherSideOfAVethPairGetsEachDatagramOnce(String name, String group, String a, String b, String c)
            throws Exception {
        assumeNamespaces();
        // a and c on va, b on vb; IPv4 needs accept_local, the sources being addresses of the same namespace.
        String setup = String.join("; ", "set -e", "ip link set lo up", "ip link add va type veth peer name vb",
                "ip link set va up", "ip link set vb up",
                "sysctl -q -w net.ipv4.conf.all.accept_local=1 net.ipv4.conf.va.accept_local=1 net.ipv4.conf.vb.accept_local=1",
                "ip addr add " + prefixed(a) + " dev va", "ip addr add " + prefixed(c) + " dev va",
                "ip addr add " + prefixed(b) + " dev vb",
                "exec \"$0\" --enable-native-access=ALL-UNNAMED -cp \"$1\" " + NamespaceMulticastProgram.class.getName()
                        + " " + String.join(" ", group, a, b, c));
        Path out = Files.createTempFile("mcast-netns", ".txt");
        try {
            Process p = new ProcessBuilder(List.of("unshare", "-n", "sh", "-c", setup,
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(), System.getProperty("java.class.path")))
                    .redirectErrorStream(true).redirectOutput(out.toFile()).start();
            if (!p.waitFor(3, TimeUnit.MINUTES)) {
                p.destroyForcibly().waitFor();
                throw new AssertionError("the program did not end within 3 minutes:\n" + Files.readString(out));
            }
            String output = Files.readString(out);
            System.out.println(name + ": " + output.strip());
            assertThat(p.exitValue()).as(output).isZero();
            assertThat(output).startsWith("OK ");
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** The address with its prefix; IPv6 without duplicate address detection, which would keep it tentative a while. */
    private static String prefixed(String address) {
        return address + (address.contains(":") ? "/64 nodad" : "/24");
    }

    private static void assumeNamespaces() throws Exception {
        String why = null;
        if (!"root".equals(System.getProperty("user.name"))) {
            why = "a network namespace of its own needs root (unshare -n); this runs as " + System.getProperty("user.name");
        } else if (!onPath("unshare") || !onPath("ip")) {
            why = "unshare (util-linux) or ip (iproute2) is not installed";
        }
        if (why != null) {
            System.out.println("SKIPPED: " + why);
            Assumptions.abort(why);
        }
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }
}
