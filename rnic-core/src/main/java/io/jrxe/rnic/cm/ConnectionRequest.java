package io.jrxe.rnic.cm;

/**
 * What a REQ asked for, as the passive side's CONNECT_REQUEST event shows it.
 *
 * @param serviceId           the service the REQ is for
 * @param remoteQpn           the active side's QP
 * @param remoteStartingPsn   the REQ's starting PSN
 * @param responderResources  READs and atomics the active side takes in at once
 * @param initiatorDepth      READs and atomics the active side will have outstanding
 * @param pathMtu             the REQ's path MTU code (IBTA's: 1 = 256 ... 5 = 4096)
 * @param retryCount          the transport retry count
 * @param rnrRetryCount       the RNR retry count
 * @param transportType       0 RC, 1 UC
 */
public record ConnectionRequest(long serviceId, int remoteQpn, int remoteStartingPsn, int responderResources,
                                int initiatorDepth, int pathMtu, int retryCount, int rnrRetryCount, int transportType) {
}
