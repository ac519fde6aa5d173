package io.jrxe.tools.learn;

import io.jrxe.tools.UserError;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Lesson 5: Ethernet, IP, UDP, BTH, RETH, payload, ICRC. The answer is the byte offset at which `decode --layout`
 * shows the RETH of frame 1 of kernel rxe's ib_write_bw capture (a file of the repository, so the same bytes always).
 */
final class PacketLayout implements Lesson {
    static final String CAPTURE = "testdata/rxe/guest_write_bw.pcap";
    private static final Pattern ROW = Pattern.compile("^\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)\\s");

    @Override
    public String file() {
        return "05-packet-layout.md";
    }

    @Override
    public Solution solve(LessonTools tools) {
        String out = tools.run("decode", "--layout", LessonTools.repositoryFile(CAPTURE).toString());
        String frame1 = out.substring(0, Math.max(0, out.indexOf("\nFrame 2:")));
        String reth = null;
        String bth = null;
        String bthLength = null;
        for (String line : frame1.lines().toList()) {
            Matcher m = ROW.matcher(line);
            if (!m.find()) {
                continue;
            }
            if (m.group(3).equals("RETH")) {
                reth = m.group(1);
            } else if (m.group(3).equals("BTH")) {
                bth = m.group(1);
                bthLength = m.group(2);
            }
        }
        if (reth == null || bth == null) {
            throw new UserError("jrxe decode --layout showed no BTH and RETH in frame 1 of " + CAPTURE);
        }
        return new Solution(Answer.number(Long.parseLong(reth), reth), Map.of("bth", bth, "bth_length", bthLength));
    }
}
