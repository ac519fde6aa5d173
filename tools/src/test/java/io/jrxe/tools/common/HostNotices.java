package io.jrxe.tools.common;

import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The lines a jrxe command writes to stderr because of the host it runs on, not because of what a test asked: a device
 * whose IPv4 packets leave through a UDP socket (no CAP_NET_RAW, or the portable path) says so once. Tests that want
 * a quiet stderr read it without them, so that they hold as root, as another user and on the portable path alike.
 */
public final class HostNotices {
    private static final Pattern UDP_TRANSMIT = Pattern.compile(
            "jrxe: [\\w.-]+: IPv4 transmit: UDP socket \\(.*\\): IPv4 peers other than jrxe will drop its packets");

    private HostNotices() {
    }

    /** The text without the host's notices, each other line with its line end. */
    public static String without(String stderr) {
        if (stderr.isEmpty()) {
            return stderr;
        }
        return stderr.lines().filter(l -> !UDP_TRANSMIT.matcher(l).matches()).map(l -> l + "\n").collect(Collectors.joining());
    }
}
