package io.jrxe.tools.analyze;

import io.jrxe.wire.capture.PcapngAnnotations;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * jrxe's requester writes why it sends a packet again as that packet's capture comment ("retransmission 1 of PSN
 * 0x001001 after NAK sequence error"); the analysis never reads those notes, so they are a second witness of each
 * resend's cause.
 */
final class ResendNotes {
    private ResendNotes() {
    }

    /** Checks that each retransmission finding's cause is the one jrxe noted on the finding's first frame. */
    static void agree(Path capture, List<AnalysisJson.Found> resent) {
        List<PcapngAnnotations.Annotation> notes = PcapngAnnotations.read(capture, Long.MAX_VALUE);
        for (AnalysisJson.Found f : resent) {
            String note = notes.get((int) f.number("frame") - 1).comment();
            assertThat(note).as("jrxe's note on frame %s, where the analysis says: %s", f.number("frame"), f.text())
                    .contains(switch (f.cause()) {
                        case "sequence_nak" -> "after NAK sequence error";
                        case "implied_nak" -> "(implied NAK)";
                        case "ack_timeout" -> "after ACK timeout";
                        case "rnr_nak" -> "after RNR NAK";
                        default -> throw new AssertionError("cause " + f.cause());
                    });
        }
    }
}
