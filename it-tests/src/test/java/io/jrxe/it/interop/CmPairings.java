package io.jrxe.it.interop;

import io.jrxe.it.interop.Pairings.Server;
import org.junit.jupiter.api.Named;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * One jrxe librdmacm tool (rping, ucmatose, udaddy) paired with the real one in the lab's guest, either side
 * serving. The programs find each other by IP address alone, through the connection manager: no TCP exchange.
 * A jrxe server is waited for by the line it prints once it listens; the guest's by its listening CM identifier
 * (`rdma resource show cm_id`).
 */
final class CmPairings {
    static final Duration RUN_LIMIT = Duration.ofSeconds(150);

    private CmPairings() {
    }

    /** The addresses of one family: jrxe's NIC in the namespace and rxe0's netdev in the guest. */
    record Family(String jrxe, String guest) {
        static final Family IPV4 = new Family(Lab.HOST4, Lab.GUEST4);
        static final Family IPV6 = new Family(Lab.HOST6, Lab.GUEST6);

        static Stream<Named<Family>> both() {
            return Stream.of(Named.of("IPv4", IPV4), Named.of("IPv6", IPV6));
        }
    }

    /** One run: the server's and the client's outputs and exit statuses. */
    record Run(Job.Result server, Job.Result client) {
        Job.Result jrxe(Server serves) {
            return serves == Server.JRXE ? server : client;
        }

        Job.Result kernel(Server serves) {
            return serves == Server.JRXE ? client : server;
        }
    }

    /**
     * Runs a pairing. {@code jrxeServer}/{@code guestServer} are the server's arguments on each side (without the
     * address, which this adds as the program takes it), likewise the clients'; {@code ready} is the line a jrxe
     * server prints once it listens, {@code port} the CM port a guest server listens on.
     */
    static Run run(Lab lab, Server serves, Family f, String tool, String ready, int port, List<String> serverArgs,
                   List<String> clientArgs, String serverAddressOption, String clientAddressOption) throws Exception {
        if (serves == Server.JRXE) {
            List<String> jrxeArgs = new ArrayList<>(List.of(tool));
            jrxeArgs.addAll(serverArgs);
            jrxeArgs.addAll(List.of(serverAddressOption, f.jrxe()));
            try (Job server = lab.jrxe("jrxe " + tool + " server", jrxeArgs.toArray(String[]::new))) {
                server.awaitOutput(ready, Duration.ofSeconds(90));
                String guest = tool + " " + String.join(" ", clientArgs) + " " + clientAddressOption + " " + f.jrxe();
                Job.Result client = lab.guest(guest + " (client)", guest, 120).await(RUN_LIMIT);
                return new Run(server.await(RUN_LIMIT), client);
            }
        }
        String guest = tool + " " + String.join(" ", serverArgs) + " " + serverAddressOption + " " + f.guest();
        try (Job server = lab.guest(guest + " (server)", guest, 150)) {
            awaitGuestCmListener(lab, server, port);
            List<String> jrxeArgs = new ArrayList<>(List.of(tool));
            jrxeArgs.addAll(clientArgs);
            jrxeArgs.addAll(List.of(clientAddressOption, f.guest()));
            Job.Result client = lab.jrxe("jrxe " + tool + " client", jrxeArgs.toArray(String[]::new)).await(RUN_LIMIT);
            return new Run(server.await(RUN_LIMIT), client);
        }
    }

    /** Waits until the guest has a listening CM identifier on {@code port} (bounded in tries and time). */
    static void awaitGuestCmListener(Lab lab, Job server, int port) throws InterruptedException {
        awaitGuestCmListener(lab, server, port, Duration.ofSeconds(60));
    }

    /** The same with a longer bound: a JVM in the guest takes minutes to start under TCG. */
    static void awaitGuestCmListener(Lab lab, Job server, int port, Duration limit) throws InterruptedException {
        String probe = "rdma resource show cm_id | grep LISTEN | grep -q -E '[:.]" + port + "( |$)'";
        long deadline = System.nanoTime() + limit.toNanos();
        for (int attempt = 0; attempt < limit.toSeconds() && System.nanoTime() < deadline; attempt++) {
            if (!server.isAlive()) {
                throw new AssertionError("the guest's server ended before it listened on port " + port + ":\n" + server.output());
            }
            if (lab.guestNow(probe, 10).exitCode() == 0) {
                return;
            }
        }
        throw new AssertionError("no CM identifier listened on port " + port + " in the guest:\n" + server.output());
    }

    /**
     * The lines of an output (stdout and stderr together, as the jobs collect them), without SLF4J's complaint
     * about the test class path, which holds its binding twice (tools' lib folder and the Maven repository).
     */
    static List<String> lines(Job.Result r) {
        return r.output().lines().filter(l -> !l.startsWith("SLF4J: ")).toList();
    }
}
