package io.jrxe.tools.fabric;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.jrxe.tools.common.InProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** `jrxe fabric` in-process, on a small dumbbell: the text, the JSON, the plot, a replay by seed and bad input. */
class FabricCommandTest {
    private static final String[] SMALL = {"fabric", "--topology", "dumbbell", "--senders", "2", "--link", "10G",
        "--duration", "1ms", "--seed", "5", "--samples", "20"};

    private static String[] with(String... more) {
        String[] args = new String[SMALL.length + more.length];
        System.arraycopy(SMALL, 0, args, 0, SMALL.length);
        System.arraycopy(more, 0, args, SMALL.length, more.length);
        return args;
    }

    @Test
    void theTextNamesTheScenarioTheFlowsTheBottleneckAndTheSeed() {
        InProcess r = InProcess.run(SMALL);
        assertThat(r.status()).as(r.toString()).isZero();
        assertThat(r.out()).contains("fabric: dumbbell, 2 sender(s), links 10 Gbit/s with 1 µs delay", "seed 5  fingerprint ",
                "10.1.0.1>10.2.0.1", "10.1.0.2>10.2.0.2", "swA>swB", "bottleneck", "Jain's fairness", "drops 0");
        assertThat(InProcess.run(SMALL).out()).as("the same seed, the same report").isEqualTo(r.out());
    }

    @Test
    void theJsonHasTheSameRunAsOneObject() throws Exception {
        InProcess r = InProcess.run(with("--json"));
        assertThat(r.status()).as(r.toString()).isZero();
        assertThat(r.lines()).hasSize(1);
        Map<String, String> first = new LinkedHashMap<>();
        List<String> flowNames = new ArrayList<>();
        try (JsonParser p = new JsonFactory().createParser(r.out())) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (t == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    JsonToken value = p.nextToken();
                    if (value.isScalarValue()) {
                        first.putIfAbsent(name, p.getText());
                        if (name.equals("name") && p.getText().startsWith("10.")) {
                            flowNames.add(p.getText());
                        }
                    }
                }
            }
        }
        assertThat(first).containsEntry("command", "fabric").containsEntry("seed", "5")
                .containsEntry("bottleneck", "swA>swB").containsEntry("drops", "0");
        assertThat(flowNames).containsExactly("10.1.0.1>10.2.0.1", "10.1.0.2>10.2.0.2");
        assertThat(Long.parseLong(first.get("written_bytes"))).isPositive();
        assertThat(InProcess.run(SMALL).out()).contains("fingerprint " + first.get("fingerprint"));
    }

    @Test
    void thePlotIsAPng(@TempDir Path dir) throws Exception {
        Path png = dir.resolve("fabric.png");
        InProcess r = InProcess.run(with("--plot", png.toString()));
        assertThat(r.status()).as(r.toString()).isZero();
        byte[] head = Files.readAllBytes(png);
        assertThat(head.length).isGreaterThan(1000);
        assertThat(new String(head, 1, 3, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("PNG");
    }

    @Test
    void pfcWithTooLittleBufferForItsXoffSaysSoAndStillRuns() {
        InProcess tight = InProcess.run(with("--pfc", "on", "--xoff", "200K", "--xon", "100K"));
        assertThat(tight.status()).as(tight.toString()).isZero();
        assertThat(tight.err()).contains("note: with PFC, 2 links feeding one queue may bring it", "more than its buffer");
        InProcess roomy = InProcess.run(with("--pfc", "on"));
        assertThat(roomy.err()).isEmpty();
    }

    @Test
    void badValuesAreOneLineNamingTheOption() {
        assertThat(InProcess.run("fabric", "--topology", "ring").err()).contains("--topology ring: there are incast, dumbbell, victim");
        assertThat(InProcess.run("fabric", "--cc", "swift").err()).contains("--cc swift: no congestion control named 'swift': there are none, dcqcn, timely");
        assertThat(InProcess.run("fabric", "--cc", "dcqcn:rai=5M").err()).contains("--cc dcqcn:rai=5M: 'dcqcn:rai=5M': "
                + "DCQCN has no setting 'rai': there are profile, line_rate");
        assertThat(InProcess.run("fabric", "--link", "fast").err()).contains("'fast' is not a rate");
        assertThat(InProcess.run("fabric", "--kmin", "300K", "--kmax", "200K").err()).contains("Kmin");
        assertThat(InProcess.run("fabric", "--pfc", "maybe").err()).contains("--pfc maybe: on or off");
        assertThat(InProcess.run("fabric", "--plot", "x.gif").err()).contains(".png or .svg");
        InProcess noDirectory = InProcess.run("fabric", "--senders", "2", "--duration", "1ms", "--plot", "/no/such/dir/x.png");
        assertThat(noDirectory.status()).as(noDirectory.toString()).isEqualTo(2);
        assertThat(noDirectory.err().strip()).isEqualTo("jrxe fabric: --plot /no/such/dir/x.png: cannot write it: "
                + "no such directory: /no/such/dir");
        for (String[] bad : new String[][] {{"fabric", "--senders", "0"}, {"fabric", "--delay", "3 parsecs"},
                {"fabric", "--cc", "timely:t_low=1ms"}}) {
            InProcess r = InProcess.run(bad);
            assertThat(r.status()).as(r.toString()).isEqualTo(1);
            assertThat(r.err().strip().lines()).as(r.toString()).hasSize(1);
        }
    }
}
