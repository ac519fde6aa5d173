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

    /** After a packet of {@code side}'s traffic was analysed; {@code waited} is what {@link #waiting} said before it. */
    void after(long frame, long time, int side, boolean waited, RequesterTrack analysedBy) {
        if (packets[0] + packets[1] > 1 && waited && time - lastTime > stall) {
            stall = time - lastTime;
            stallFromFrame = lastFrame;
            stallFromTime = lastTime;
            stallToFrame = frame;
            stallCause = analysedBy.lastEventWords();
        }
        lastFrame = frame;
        lastTime = time;
    }
}
