package io.jrxe.it;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two JVMs, each with one jrxe device on real UDP (127.0.2.1 and 127.0.2.2), exchange QP
 * numbers, PSNs, GIDs, addresses and keys over TCP and run every RC operation between them.
 */
class TwoProcessRcTest {
    @Test
    void everyRcOperationWorksBetweenTwoProcesses() throws Exception {
        int tcpPort;
        try (ServerSocket probe = new ServerSocket(0)) {
            tcpPort = probe.getLocalPort();
        }
        Process server = start("server", "127.0.2.1", String.valueOf(tcpPort));
        Process client = null;
        try {
            BufferedReader serverOut = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
            List<String> serverLines = new ArrayList<>();
            String line;
            while ((line = serverOut.readLine()) != null) {
                serverLines.add(line);
                if (line.equals("LISTENING") || line.startsWith("FAIL")) {
                    break;
                }
            }
            assertThat(serverLines).as("the server must start listening").contains("LISTENING");

            client = start("client", "127.0.2.2", "127.0.2.1", String.valueOf(tcpPort));
            assertThat(client.waitFor(60, TimeUnit.SECONDS)).as("client finished").isTrue();
            String clientOutput = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(server.waitFor(60, TimeUnit.SECONDS)).as("server finished").isTrue();
            while ((line = serverOut.readLine()) != null) {
                serverLines.add(line);
            }
            assertThat(clientOutput.strip()).as("client: " + clientOutput).endsWith("PASS");
            assertThat(serverLines.getLast()).as("server: " + serverLines).isEqualTo("PASS");
        } finally {
            server.destroyForcibly();
            if (client != null) {
                client.destroyForcibly();
            }
        }
    }

    private static Process start(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), RcPeer.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }
}
