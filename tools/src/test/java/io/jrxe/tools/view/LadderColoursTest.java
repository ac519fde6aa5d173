package io.jrxe.tools.view;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The colours of the message brackets and their labels say nothing: none may read as one of the legend's, each of
 * which means something (the "bad ICRC" brown, the NAK red, ...).
 */
class LadderColoursTest {
    /** The least distance in RGB space that two colours keep to be told apart at a glance on a white page. */
    private static final double APART = 60;

    @Test
    void messageBracketsAndLabelsAreNoColourOfTheLegend() throws IOException {
        String css = resource("ladder.css");
        Map<String, int[]> legend = new LinkedHashMap<>();
        for (String name : new String[] {"req", "resp", "ack", "nak", "rnr", "retx", "drop", "bad"}) {
            Matcher m = Pattern.compile("--" + name + ": (#\\p{XDigit}{6});").matcher(css);
            assertThat(m.find()).as("the legend's colour --%s", name).isTrue();
            legend.put(name, rgb(m.group(1)));
        }
        Matcher messages = Pattern.compile("\\.msg\\.(even|odd) (path|text) \\{ (?:stroke|fill): (#\\p{XDigit}{6}); \\}").matcher(css);
        int found = 0;
        while (messages.find()) {
            found++;
            int[] colour = rgb(messages.group(3));
            for (Map.Entry<String, int[]> l : legend.entrySet()) {
                assertThat(distance(colour, l.getValue())).as(".msg.%s %s %s against the legend's %s", messages.group(1),
                        messages.group(2), messages.group(3), l.getKey()).isGreaterThan(APART);
            }
        }
        assertThat(found).as("the even and odd brackets' line and label colours").isEqualTo(4);
    }

    @Test
    void theCheckTellsTheOldBrownFromTheBadIcrcBrownApart() {
        // The odd labels' colour the page had, against --bad: the test above would refuse it.
        assertThat(distance(rgb("#7a5a1c"), rgb("#8b5a2b"))).isLessThan(APART);
    }

    private static int[] rgb(String hex) {
        int v = Integer.parseInt(hex.substring(1), 16);
        return new int[] {v >> 16, v >> 8 & 0xFF, v & 0xFF};
    }

    private static double distance(int[] a, int[] b) {
        return Math.sqrt(Math.pow(a[0] - b[0], 2) + Math.pow(a[1] - b[1], 2) + Math.pow(a[2] - b[2], 2));
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = LadderPage.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
