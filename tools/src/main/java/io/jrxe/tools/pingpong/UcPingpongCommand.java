package io.jrxe.tools.pingpong;

import io.jrxe.verbs.QpType;
import picocli.CommandLine.Command;

/** `jrxe uc-pingpong`: ibv_uc_pingpong, which is ibv_rc_pingpong over an unreliable connection. */
@Command(name = "uc-pingpong", mixinStandardHelpOptions = true,
        description = "ibv_uc_pingpong on a jrxe NIC or a kernel device (-d): a UC QP sends a message, the peer echoes it, ITERS times; "
                + "then the bandwidth and the time per exchange. Without SERVERNAME it is the server. UC has no ACKs "
                + "and no retries: a lost message stalls the run until --timeout.")
public final class UcPingpongCommand extends ConnectedPingpong {
    @Override
    QpType type() {
        return QpType.UC;
    }
}
