package io.jrxe.tools.perftest;

import io.jrxe.tools.common.LatencyBreakdown;
import io.jrxe.verbs.Mtu;

/** What a perftest run was asked for, defaults resolved as perftest's parser and force_dependencies resolve them. */
final class PerftestSettings {
    Verb verb;
    boolean bw;
    boolean client;
    long size;
    long maxSize;
    /** -s was given (perftest's req_size): a UD size past the MTU is then an error rather than lowered. */
    boolean sizeRequested;
    boolean all;
    long iters;
    int durationSeconds;
    int marginSeconds;
    int txDepth;
    int rxDepth;
    int cqMod;
    int qps;
    int outReads;
    int inline;
    boolean noPeak;
    /** --qp-spread: print the slowest, median and fastest QP's bandwidth after the client's row. */
    boolean qpSpread;
    boolean gbits;
    /** --odp: the data buffer is registered ON_DEMAND. */
    boolean odp;
    boolean events;
    boolean histogram;
    boolean unsorted;
    String atomicType;
    int qpTimeout;
    int sl;
    int ibPort;
    int gidIndex;
    Mtu mtu;
    int timeoutMillis;
    int cycleBuffer = PerftestConnection.CYCLE_BUFFER;
    int cacheLine = PerftestConnection.CACHE_LINE;
    String deviceName;
    /** --latency-breakdown's recorder, or null. */
    LatencyBreakdown breakdown;
    /** -c. */
    ConnectionType connection = ConnectionType.RC;
    /** -b: both sides send and measure, and each prints the sum of both directions. */
    boolean duplex;
    /** -R: the QPs and the exchange go through the connection manager. */
    boolean rdmaCm;
    /** -R or -z: the exchange runs over a QP the connection manager connected (perftest's use_rdma_cm). */
    boolean rdmaCmExchange;
    /** -l: work requests posted per ibv_post_send call, as one chain. */
    int postList = 1;
    /** --use-srq. */
    boolean useSrq;
    /** --out_json's file, or null. */
    String outJsonFile;

    /** This side receives into an SRQ: perftest makes one where receives are posted (latency, a server, -b). */
    boolean srqHere() {
        return useSrq && (!bw || !client || duplex);
    }

    /** This side posts the test's work requests: a bandwidth client, either side with -b, both in latency tests. */
    boolean sendsHere() {
        return client || duplex || !bw;
    }

    /** This side posts receives: send tests, on a bandwidth server, with -b, and both sides of send_lat. */
    boolean receivesHere() {
        return verb.receives() && (!bw || !client || duplex);
    }

    /**
     * The test's name as perftest prints it ("RDMA_Write Bidirectional BW Test", "Atomic FETCH_AND_ADD Latency Test"),
     * the words joined by {@code sep}: a space in the header, '_' in the JSON reports.
     */
    String testName(char sep) {
        StringBuilder t = new StringBuilder(verb.title()).append(sep);
        if (atomicType != null) {
            t.append(atomicType).append(sep);
        }
        if (bw) {
            t.append(duplex ? "Bidirectional" + sep : "").append(postList > 1 ? "Post" + sep + "List" + sep : "").append("BW");
        } else {
            t.append("Latency");
        }
        return t.append(sep).append("Test").toString();
    }

    /**
     * The sizes a run covers: one, or with -a every power of two from 2 to 2^23; over UD only up to the MTU,
     * the largest datagram.
     */
    long[] sizes() {
        if (!all) {
            return new long[] {size};
        }
        int top = connection == ConnectionType.UD ? Long.numberOfTrailingZeros(mtu.bytes()) : 23;
        long[] sizes = new long[top];
        for (int i = 1; i <= top; i++) {
            sizes[i - 1] = 1L << i;
        }
        return sizes;
    }
}
