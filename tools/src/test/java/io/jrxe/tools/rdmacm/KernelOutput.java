package io.jrxe.tools.rdmacm;

import io.jrxe.wire.capture.GoldenCaptures;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

/**
 * What the real programs printed in testdata/rxe-cm (cm_*.txt: "# server ..." then its lines, "# client ..."
 * then its lines), the reference for the jrxe tools' output.
 */
record KernelOutput(List<String> server, List<String> client) {
    static KernelOutput of(String txt) {
        try {
            List<String> server = new ArrayList<>();
            List<String> client = new ArrayList<>();
            List<String> into = null;
            for (String line : Files.readAllLines(GoldenCaptures.cmFile(txt))) {
                if (line.startsWith("# server")) {
                    into = server;
                } else if (line.startsWith("# client")) {
                    into = client;
                } else if (into != null) {
                    into.add(line);
                }
            }
            return new KernelOutput(List.copyOf(server), List.copyOf(client));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
