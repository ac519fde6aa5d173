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
    @Option(names = {"-o", "--odp"}, description = "register the buffer with on-demand paging (IBV_ACCESS_ON_DEMAND): nothing "
            + "is pinned, the NIC faults each page in at its first use; on a jrxe device a line of ODP counters follows "
            + "the results (docs/odp.md)")
    boolean odp;

    @Option(names = {"-O", "--iodp"}, description = "use implicit on-demand paging: one ON_DEMAND MR for the whole address "
            + "space (ibv_reg_mr(pd, NULL, SIZE_MAX, ...)), and the buffer's address with its L_Key; a jrxe NIC is made "
            + "with implicit ODP and the buffer mapped into its address space; the ODP counters follow the results "
            + "as with -o (docs/odp.md)")
    boolean implicitOdp;

    @Option(names = {"-P", "--prefetch"}, description = "with -o or -O: prefetch the whole buffer for writing "
            + "(ibv_advise_mr PREFETCH_WRITE, FLUSH: the pages are in when it returns) before the first exchange")
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
    boolean onDemand() {
        return odp || implicitOdp;
    }

    @Override
    boolean implicitOnDemand() {
        return implicitOdp;
    }

    @Override
    boolean prefetch() {
        return prefetch;
    }

    @Override
    void validateMore() {
        super.validateMore();
        if (odp && deviceMemory) {
            throw bad("-j/--dm with -o/--odp: DM memory region can't be on demand");
        }
        if (implicitOdp && deviceMemory) {
            throw bad("-j/--dm with -O/--iodp: DM memory region can't be on demand");
        }
        if (prefetch && !onDemand()) {
            throw bad("-P/--prefetch: prefetch is valid only with on-demand memory region (-o/--odp or -O/--iodp)");
        }
        if (timestamps) {
            throw bad("-t/--ts: The device isn't completion timestamp capable: jrxe's completions carry no timestamp");
        }
        if (deviceMemory) {
            throw bad("-j/--dm: Device doesn't support dm allocation: jrxe has no device memory");
        }
    }
}
