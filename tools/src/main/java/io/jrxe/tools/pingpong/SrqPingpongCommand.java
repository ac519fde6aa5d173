package io.jrxe.tools.pingpong;

import io.jrxe.verbs.QpType;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * `jrxe srq-pingpong`: ibv_srq_pingpong. -q RC QPs share one SRQ of -r receives; each QP pings its peer QP,
 * and ITERS counts the exchanges of all QPs together.
 */
@Command(name = "srq-pingpong", mixinStandardHelpOptions = true,
        description = "ibv_srq_pingpong on a jrxe NIC or a kernel device (-d): NUM RC QPs whose receives come from one shared "
                + "receive queue each send a message that the peer's QP echoes, ITERS exchanges in all; then the bandwidth "
                + "and the time per exchange. Without SERVERNAME it is the server.")
public final class SrqPingpongCommand extends ConnectedPingpong {
    /** ibv_srq_pingpong's MAX_QP: it always sends this many address messages, and -q must stay below it. */
    static final int EXCHANGE_SLOTS = 256;

    @Option(names = {"-q", "--num-qp"}, paramLabel = "NUM", defaultValue = "16",
            description = "number of QPs to use (default: ${DEFAULT-VALUE})")
    int numQp;

    @Override
    QpType type() {
        return QpType.RC;
    }

    @Override
    int qpCount() {
        return numQp;
    }

    @Override
    int exchangeSlots() {
        return EXCHANGE_SLOTS;
    }

    @Override
    boolean sharedReceiveQueue() {
        return true;
    }

    @Override
    void validateMore() {
        super.validateMore();
        if (numQp < 1) {
            throw bad("-q/--num-qp " + numQp + ": use at least one QP");
        }
        if (numQp >= EXCHANGE_SLOTS) {
            throw bad("-q/--num-qp " + numQp + ": at most " + (EXCHANGE_SLOTS - 1) + " QPs (ibv_srq_pingpong sends " + EXCHANGE_SLOTS + " addresses)");
        }
        if (numQp > rxDepth) {
            throw bad("-q/--num-qp " + numQp + " with -r/--rx-depth " + rxDepth
                    + ": rx_depth is too small: there must be at least one receive per QP");
        }
    }
}
