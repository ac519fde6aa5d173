package io.jrxe.tools.pingpong;

import io.jrxe.verbs.QpType;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** `jrxe pingpong`: ibv_rc_pingpong on a jrxe NIC or a kernel device, its options, output and TCP exchange. */
@Command(name = "pingpong", mixinStandardHelpOptions = true,
        description = "ibv_rc_pingpong on a jrxe NIC or a kernel device (-d): an RC QP sends a message, the peer echoes it, ITERS times; "
                + "then the bandwidth and the time per exchange. Without SERVERNAME it is the server and waits for a "
                + "client (jrxe's or the real ibv_rc_pingpong, which needs -g there).")
public final class RcPingpongCommand extends ConnectedPingpong {
    @Option(names = {"-o", "--odp"}, description = "use on-demand paging (jrxe has none: refused)")
    boolean odp;

    @Option(names = {"-O", "--iodp"}, description = "use implicit on-demand paging (jrxe has none: refused)")
    boolean implicitOdp;

    @Option(names = {"-P", "--prefetch"}, description = "prefetch an ODP MR (refused, as without ODP)")
    boolean prefetch;

    @Option(names = {"-t", "--ts"}, description = "get CQEs with timestamps (jrxe has none: refused)")
    boolean timestamps;

    @Option(names = {"-j", "--dm"}, description = "use device memory (jrxe has none: refused)")
    boolean deviceMemory;

    @Option(names = {"-N", "--new_send"}, description = "use the new post send WR API (same work requests on jrxe)")
    boolean newSend;

    @Option(names = {"-U", "--allow-cc-unprotected"}, description = "CoCo guests' unprotected memory (nothing to do on jrxe)")
    boolean ccUnprotected;

    @Override
    QpType type() {
        return QpType.RC;
    }

    @Override
    void validateMore() {
        super.validateMore();
        if (odp && deviceMemory) {
            throw bad("-j/--dm with -o/--odp: DM memory region can't be on demand");
        }
        if (prefetch && !odp && !implicitOdp) {
            throw bad("-P/--prefetch: prefetch is valid only with on-demand memory region");
        }
        if (odp || implicitOdp) {
            throw bad("-o/--odp, -O/--iodp: The device isn't ODP capable or does not support RC send and receive with ODP: "
                    + "jrxe registers memory up front (pinned), it has no on-demand paging");
        }
        if (timestamps) {
            throw bad("-t/--ts: The device isn't completion timestamp capable: jrxe's completions carry no timestamp");
        }
        if (deviceMemory) {
            throw bad("-j/--dm: Device doesn't support dm allocation: jrxe has no device memory");
        }
    }
}
