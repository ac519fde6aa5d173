package io.jrxe.tools.common;

import picocli.CommandLine.Option;

/**
 * -i/--ib-port, the device port a connecting command (perftest's, ibv_rc_pingpong's and ibv_ud_pingpong's,
 * rc-ops) uses; mixed in with picocli's {@code @Mixin}. Each command checks the number with its own words
 * (perftest's are its original's).
 */
public final class IbPortOption {
    @Option(names = {"-i", "--ib-port"}, paramLabel = "PORT", defaultValue = "1",
            description = "use port PORT of the device (default: ${DEFAULT-VALUE})")
    int number;

    /** The port number as given (1 unless given); not checked. */
    public int number() {
        return number;
    }
}
