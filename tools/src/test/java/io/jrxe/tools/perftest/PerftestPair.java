package io.jrxe.tools.perftest;

import io.jrxe.tools.common.ChildJrxe;
import io.jrxe.tools.common.InProcess;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A perftest command, jrxe against jrxe across two JVMs: the server in a child JVM on 127.0.1.1 (the test waits
 * for its "Waiting for client" banner, printed once it listens), the client here on 127.0.1.2 (or on addresses the
 * test gives); and the checks of
 * their outputs the tests share.
 */
final class PerftestPair {
    private PerftestPair() {
    }

    static final Pattern ADDRESS = Pattern.compile(" (local|remote) address: LID 0000 QPN (0x[0-9a-f]{4,}) PSN (0x[0-9a-f]{4,}|000000)"
            + "( OUT 0x[0-9a-f]+)?( RKey (0x[0-9a-f]{6,}) VAddr (0x[0-9a-f]{14,}))?");
    static final Pattern GID = Pattern.compile(" GID: (\\d{2,3}:){15}\\d{2,3}");
    static final Pattern BW_ROW = Pattern.compile(" (\\d+)\\s+(\\d+)\\s+(\\d+\\.\\d+)\\s+(\\d+\\.\\d+)\\s+(\\d+\\.\\d+)\\s*");
    static final Pattern LAT_ROW = Pattern.compile(" (\\d+)\\s+(\\d+)(\\s+\\d+\\.\\d\\d){7}\\s*");
    static final long CHILD_SECONDS = 120;

    /** Both sides' stdout lines, and the client's stderr. */
    record Run(List<String> server, List<String> client, String clientErr) {
    }

    /** A run both sides of which succeed, the client saying nothing on stderr. */
    static Run run(String command, int port, String... extra) throws Exception {
        Run r = runWithNotices(command, port, extra);
        assertThat(r.clientErr()).isEmpty();
        return r;
    }

    /** A run both sides of which succeed; the client's stderr is returned for the test to check. */
    static Run runWithNotices(String command, int port, String... extra) throws Exception {
        return runEach(command, port, List.of(extra), List.of(extra));
    }

    /** A run both sides of which succeed, each with its own options. */
    static Run runEach(String command, int port, List<String> serverExtra, List<String> clientExtra) throws Exception {
        return runEachAt("127.0.1.1", "127.0.1.2", command, port, serverExtra, clientExtra);
    }

    /** As {@link #runEach}, the server's NIC on {@code serverAddress} and the client's on {@code clientAddress}. */
    static Run runEachAt(String serverAddress, String clientAddress, String command, int port, List<String> serverExtra,
                         List<String> clientExtra) throws Exception {
        List<String> serverArgs = new ArrayList<>(List.of(command, "--addr", serverAddress, "-p", String.valueOf(port)));
        serverArgs.addAll(serverExtra);
        try (ChildJrxe server = ChildJrxe.start(serverArgs.toArray(String[]::new))) {
            server.awaitLine(l -> l.equals("* Waiting for client to connect... *"), CHILD_SECONDS);
            List<String> clientArgs = new ArrayList<>(List.of(command, "--addr", clientAddress, "-d", "jrxe-pt-client", "-p",
                    String.valueOf(port)));
            clientArgs.addAll(clientExtra);
            clientArgs.add(serverAddress);
            InProcess client = InProcess.run(clientArgs.toArray(String[]::new));
            assertThat(client.status()).as(client.toString()).isZero();
            assertThat(server.waitFor(CHILD_SECONDS)).as(server.stderr()).isZero();
            return new Run(server.stdoutLines(), client.lines(), client.err());
        }
    }

    /** Header, addresses and the table rows of one side of an RC run without an SRQ; checks what every run shares. */
    static List<String> rows(List<String> lines, String title, boolean bw, String verb) {
        return rows(lines, title, bw, verb, " Connection type : RC\t\tUsing SRQ      : OFF");
    }

    /** As above, with the header's connection line. */
    static List<String> rows(List<String> lines, String title, boolean bw, String verb, String connectionLine) {
        assertThat(lines).contains(PerftestFormat.RESULT_LINE, "                    " + title, " Link type       : Ethernet",
                " GID index       : 1", " Data ex. method : Ethernet", connectionLine);
        assertThat(lines).anyMatch(l -> l.matches(" Dual-port       : OFF\t\tDevice         : jrxe\\S*"));
        assertThat(lines).anyMatch(l -> l.matches(" Mtu             : \\d+\\[B\\]"));
        List<Matcher> addresses = lines.stream().map(ADDRESS::matcher).filter(Matcher::matches).toList();
        assertThat(addresses).as("%s", lines).hasSizeGreaterThanOrEqualTo(2);
        for (Matcher m : addresses) {
            assertThat(m.group(6) != null).as("R_Key and address for %s", verb).isEqualTo(verb.equals("WRITE") || verb.equals("READ"));
            assertThat(m.group(4) != null).isEqualTo(verb.equals("READ"));
        }
        assertThat(lines.stream().filter(l -> GID.matcher(l).matches()).count()).isEqualTo(addresses.size());
        String header = bw ? PerftestFormat.BW_HEADER_MB : PerftestFormat.LAT_HEADER;
        int at = lines.indexOf(header);
        assertThat(at).as("table header in %s", lines).isPositive();
        assertThat(lines.get(at - 1)).isEqualTo(PerftestFormat.RESULT_LINE);
        List<String> rows = new ArrayList<>();
        for (int i = at + 1; i < lines.size() && !lines.get(i).equals(PerftestFormat.RESULT_LINE); i++) {
            rows.add(lines.get(i));
        }
        assertThat(lines.getLast()).isEqualTo(PerftestFormat.RESULT_LINE);
        return rows;
    }

    /** The client's local line is the server's remote line and the other way round. */
    static void addressesCross(Run r) {
        List<String> s = r.server().stream().filter(l -> ADDRESS.matcher(l).matches()).toList();
        List<String> c = r.client().stream().filter(l -> ADDRESS.matcher(l).matches()).toList();
        assertThat(s.stream().filter(l -> l.startsWith(" local")).map(l -> l.substring(7)).toList())
                .isEqualTo(c.stream().filter(l -> l.startsWith(" remote")).map(l -> l.substring(8)).toList());
        assertThat(c.stream().filter(l -> l.startsWith(" local")).map(l -> l.substring(7)).toList())
                .isEqualTo(s.stream().filter(l -> l.startsWith(" remote")).map(l -> l.substring(8)).toList());
    }

    static void bwRowsPositive(List<String> rows, long size, long iters) {
        assertThat(rows).isNotEmpty();
        for (String row : rows) {
            Matcher m = BW_ROW.matcher(row);
            assertThat(m.matches()).as(row).isTrue();
            if (size > 0) {
                assertThat(Long.parseLong(m.group(1))).isEqualTo(size);
            }
            assertThat(Long.parseLong(m.group(2))).isEqualTo(iters);
            if (Long.parseLong(m.group(1)) >= 4096) {
                assertThat(Double.parseDouble(m.group(4))).as("BW average").isPositive();
            }
            assertThat(Double.parseDouble(m.group(5))).as("message rate").isPositive();
        }
    }

    static void latRowsPositive(List<String> rows, long size, long iters) {
        assertThat(rows).hasSize(1);
        Matcher m = LAT_ROW.matcher(rows.getFirst());
        assertThat(m.matches()).as(rows.getFirst()).isTrue();
        String[] f = rows.getFirst().strip().split("\\s+");
        assertThat(Long.parseLong(f[0])).isEqualTo(size);
        assertThat(Long.parseLong(f[1])).isEqualTo(iters);
        double min = Double.parseDouble(f[2]);
        double max = Double.parseDouble(f[3]);
        double typical = Double.parseDouble(f[4]);
        assertThat(min).isPositive();
        assertThat(typical).isBetween(min, max);
        assertThat(Double.parseDouble(f[5])).isBetween(min, max);
        assertThat(Double.parseDouble(f[7])).isBetween(min, Double.parseDouble(f[8]));
    }
}
