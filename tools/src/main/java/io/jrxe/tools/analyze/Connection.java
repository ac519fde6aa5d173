package io.jrxe.tools.analyze;

import io.jrxe.wire.opcode.Transport;

/**
 * Two endpoints and the packets between them: an RC or UC QP and its peer, or two UD QPs that sent to each
 * other. Side 0 is the endpoint that sent first. Each side has a {@link RequesterTrack} for the requests it
 * sends and the responses it gets, and its own findings; the connection keeps its longest stall.
 */
final class Connection {
    static final int UNKNOWN_QPN = -1;

    final int id;
    final Transport transport;
    final String[] address = new String[2];
    final int[] qpn = {UNKNOWN_QPN, UNKNOWN_QPN};
    final int udpPort;
    final RequesterTrack[] requesters = new RequesterTrack[2];
    final long[] packets = new long[2];
    final long[] bytes = new long[2];
    final long[] cnps = new long[2];
    final long[] ecnMarked = new long[2];
    final long[] becn = new long[2];
    final long[] firstCnpFrame = new long[2];
    final long[] firstCnpTime = new long[2];
    final long[] firstEcnFrame = new long[2];
    final long[] firstEcnTime = new long[2];
    long firstFrame;
    long firstTime;
    long lastFrame;
    long lastTime;

    /** The last packet analysed (in a capture of every port, a response counts where it arrived). */
    private long analysedFrame;
    private long analysedTime;

    long stall = -1;
    long stallFromFrame;
    long stallFromTime;
    long stallToFrame;
    String stallCause;

    /** Slices of a throughput graph's time axis. */
    private static final int THROUGHPUT_SLICES = 1024;

    /**
     * @param keep          how many findings of each kind each side keeps in full (0: all)
     * @param arrivalsKnown whether the capture records each packet's arrival (see {@link RequesterTrack})
     */
    Connection(int id, Transport transport, String first, String second, int udpPort, int keep, Timeline timeline,
               boolean arrivalsKnown) {
        this.id = id;
        this.transport = transport;
        this.address[0] = first;
        this.address[1] = second;
        this.udpPort = udpPort;
        for (int side = 0; side < 2; side++) {
            RateSeries throughput = new RateSeries(THROUGHPUT_SLICES);
            throughput.origin(timeline.start());
            requesters[side] = new RequesterTrack(new Findings(keep), timeline, throughput, arrivalsKnown);
        }
    }

    String endpoint(int side) {
        return address[side] + " " + (qpn[side] == UNKNOWN_QPN ? "QP ?" : String.format("QP 0x%06x", qpn[side]));
    }

    Findings findings(int side) {
        return requesters[side].findings;
    }

    /**
     * Called before the packet at {@code time} is analysed: whether requests were outstanding while nothing
     * was seen since the previous packet, so that {@link #after} can keep the longest such wait.
     */
    boolean waiting() {
        return requesters[0].outstanding() || requesters[1].outstanding();
    }

    /** A packet of {@code side} was sent (the first record of it in the capture). */
    void sent(int side, long frame, long time, long wireLength) {
        packets[side]++;
        bytes[side] += wireLength;
        lastFrame = Math.max(lastFrame, frame);
        lastTime = Math.max(lastTime, time);
    }

    /** After a packet was analysed; {@code waited} is what {@link #waiting} said before it. */
    void after(long frame, long time, boolean waited, RequesterTrack analysedBy) {
        if (analysedFrame > 0 && waited && time - analysedTime > stall) {
            stall = time - analysedTime;
            stallFromFrame = analysedFrame;
            stallFromTime = analysedTime;
            stallToFrame = frame;
            stallCause = analysedBy.lastEventWords();
        }
        analysedFrame = frame;
        analysedTime = time;
        lastFrame = Math.max(lastFrame, frame);
        lastTime = Math.max(lastTime, time);
    }
}
