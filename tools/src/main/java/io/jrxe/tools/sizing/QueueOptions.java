package io.jrxe.tools.sizing;

import io.jrxe.tools.common.ByteSizeConverter;
import picocli.CommandLine.Option;

/** The options that size a QP's queues and its CQ, shared by `jrxe queue-size` and `jrxe mtt-size`. */
final class QueueOptions {
    @Option(names = "--send-wr", paramLabel = "N", description = "work requests the send queue holds")
    Long sendWrs;

    @Option(names = "--recv-wr", paramLabel = "N", description = "work requests the receive queue holds")
    Long recvWrs;

    @Option(names = "--wqe", paramLabel = "SIZE", converter = ByteSizeConverter.class,
            description = "bytes of one work queue entry (WQE)")
    Long wqeBytes;

    @Option(names = "--recv-wqe", paramLabel = "SIZE", converter = ByteSizeConverter.class,
            description = "bytes of one receive WQE, when it differs from --wqe")
    Long recvWqeBytes;

    @Option(names = "--cqe", paramLabel = "SIZE", converter = ByteSizeConverter.class,
            description = "bytes of one completion queue entry (CQE)")
    Long cqeBytes;

    @Option(names = "--cq-entries", paramLabel = "N",
            description = "entries of the completion queue (default: one per work request, send plus receive)")
    Long cqEntries;

    /** True when any queue option was given. */
    boolean any() {
        return sendWrs != null || recvWrs != null || wqeBytes != null || recvWqeBytes != null || cqeBytes != null
                || cqEntries != null;
    }

    /** Why these options cannot size the queues, or null when they can. */
    String problem() {
        if (sendWrs == null && recvWrs == null) {
            return "give --send-wr, --recv-wr or both";
        }
        if (wqeBytes == null && (sendWrs != null || recvWqeBytes == null)) {
            return "--wqe (the bytes of one WQE) is needed to size the queues";
        }
        if (cqeBytes == null) {
            return "--cqe (the bytes of one CQE) is needed to size the CQ";
        }
        String negative = firstBelow(0, "cannot be negative", "--send-wr", sendWrs, "--recv-wr", recvWrs,
                "--cq-entries", cqEntries);
        if (negative != null) {
            return negative;
        }
        return firstBelow(1, "must be at least 1 byte", "--wqe", wqeBytes, "--recv-wqe", recvWqeBytes, "--cqe", cqeBytes);
    }

    /** "NAME problem" for the first of the (name, value) pairs whose value was given and is below {@code least}, or null. */
    private static String firstBelow(long least, String problem, Object... namesAndValues) {
        for (int i = 0; i < namesAndValues.length; i += 2) {
            Long value = (Long) namesAndValues[i + 1];
            if (value != null && value < least) {
                return namesAndValues[i] + " " + problem;
            }
        }
        return null;
    }

    QueueSizing sizing() {
        long recvWqe = recvWqeBytes != null ? recvWqeBytes : wqeBytes;
        return new QueueSizing(sendWrs == null ? 0 : sendWrs, recvWrs == null ? 0 : recvWrs,
                wqeBytes == null ? recvWqe : wqeBytes, recvWqe, cqeBytes, cqEntries == null ? -1 : cqEntries);
    }
}
