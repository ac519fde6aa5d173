package io.jrxe.tools.common;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A network namespace a test makes for itself (root and iproute2 needed) and deletes after: a host whose addresses
 * the test chooses, such as a loopback with two IPv6 addresses or one with only 127.0.0.1.
 */
public final class NetworkNamespace implements AutoCloseable {
    private final String name;

    private NetworkNamespace(String name) {
        this.name = name;
    }

    /**
     * Makes the namespace {@code prefix-PID}; where it cannot be made, prints {@code SKIPPED: what: why} and aborts
     * the test.
     */
    public static NetworkNamespace makeOrSkip(String prefix, String what) throws InterruptedException {
        String name = prefix + "-" + ProcessHandle.current().pid();
        String why = ip("netns", "add", name);
        if (why != null) {
            System.out.println("SKIPPED: " + what + ": cannot make a network namespace (root and iproute2 needed): " + why);
            Assumptions.abort("cannot make a network namespace: " + why);
        }
        return new NetworkNamespace(name);
    }

    public String name() {
        return name;
    }

    /** Runs {@code ip -n NAME ARGS}; null when it succeeded, else what it said. */
    public String ipIn(String... args) throws InterruptedException {
        List<String> all = new ArrayList<>(List.of("-n", name));
        all.addAll(List.of(args));
        return ip(all.toArray(String[]::new));
    }

    /** The command prefix that runs a command in the namespace. */
    public List<String> exec() {
        return List.of("ip", "netns", "exec", name);
    }

    @Override
    public void close() throws InterruptedException {
        ip("netns", "del", name);
    }

    /** Runs ip; null when it succeeded, else what it said. */
    public static String ip(String... args) throws InterruptedException {
        List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).strip();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "ip did not finish";
            }
            return p.exitValue() == 0 ? null : out;
        } catch (IOException e) {
            return e.getMessage();
        }
    }
}
