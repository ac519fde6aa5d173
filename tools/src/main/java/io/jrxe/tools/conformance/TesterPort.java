package io.jrxe.tools.conformance;

import io.jrxe.wire.framing.RoceFramer;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.icrc.Ipv4IdentificationSolver;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.raw.RawIpv4Sender;
import io.jrxe.wire.port.raw.RawSocketOpener;
import io.jrxe.wire.port.raw.RawSocketUnavailableException;

import java.nio.ByteBuffer;

/**
 * The tester's own network end: where its crafted packets get their ICRCs and leave, from its address or from a
 * third one (forged sources), and where the target's answers are checked as they arrive. A {@link TesterCarriage}
 * moves the bytes: UDP sockets, or the shared-memory wire. IPv4's ICRC covers the IP identification: through a raw
 * socket ({@link RawIpv4Sender}) the tester chooses it and any RoCE target can check the ICRC; through a UDP socket
 * the kernel chooses it, and on the shared-memory wire there is no IP header at all, so the ICRC is computed for
 * identification 0 and only a jrxe target (which solves for the identification) accepts the packets. A bad ICRC is
 * made wrong for every identification and always leaves through the carriage.
 */
final class TesterPort implements AutoCloseable {
    private static final int RAW_SOURCE_PORT = 0xC000;
    private static final int MAX_PACKET = 8192;
    /** IPv4 and UDP headers in front of a RoCE packet. */
    static final int IP_UDP_HEADERS = 20 + 8;

    private final PeerAddress self;
    private final PeerAddress third;
    private final TesterCarriage carriage;
    private final RawIpv4Sender raw;
    private final RawIpv4Sender rawThird;
    private final String path;
    private final RoceFramer framer = new RoceFramer();
    private final Ipv4IdentificationSolver solver = new Ipv4IdentificationSolver();
    private final PacketLog log;

    /**
     * @param carriage what moves the bytes; the port closes it
     * @param useRaw try the raw socket (else the carriage alone); without CAP_NET_RAW the carriage is used and says why
     */
    TesterPort(PeerAddress self, PeerAddress third, TesterCarriage carriage, boolean useRaw, PacketLog log) {
        this.self = self;
        this.third = third;
        this.carriage = carriage;
        this.log = log;
        RawIpv4Sender r = null;
        RawIpv4Sender rt = null;
        String why = carriage.withoutRaw();
        if (useRaw) {
            try {
                r = new RawIpv4Sender(RawSocketOpener.system().open(), self, 4, MAX_PACKET, 1);
                rt = new RawIpv4Sender(RawSocketOpener.system().open(), third, 4, MAX_PACKET, 1);
            } catch (RawSocketUnavailableException e) {
                if (r != null) {
                    r.close();
                    r = null;
                }
                why = e.missingPrivilege() ? "no CAP_NET_RAW" : e.getMessage();
            }
        }
        raw = r;
        rawThird = rt;
        path = raw != null ? "raw IPv4 socket (the tester chooses the IP identification its ICRCs cover: any RoCE target can check them)"
                : carriage.describe() + " (" + why + "): ICRCs are computed for IP identification 0, which only jrxe targets accept";
    }

    String path() {
        return path;
    }

    boolean raw() {
        return raw != null;
    }

    /** Sends a crafted packet (its last four bytes get the ICRC) to the target; {@link UnsentPacket} if it cannot leave. */
    void send(byte[] roce, PacketRecipe.Source from, boolean badIcrc, PeerAddress target) {
        boolean fromThird = from == PacketRecipe.Source.THIRD;
        PeerAddress src = fromThird ? third : self;
        ByteBuffer bb = ByteBuffer.wrap(roce);
        boolean hasRoom = roce.length >= BthFlyweight.LENGTH + IcrcCalculator.LENGTH;
        RawIpv4Sender rawSender = fromThird ? rawThird : raw;
        if (rawSender != null && hasRoom && !badIcrc) {
            int id = rawSender.stage(bb, 0, roce.length, target, RAW_SOURCE_PORT);
            if (rawSender.flush() == 0) {
                throw new UnsentPacket("the kernel refused the tester's " + (IP_UDP_HEADERS + roce.length)
                        + "-byte packet: " + rawSender.lastError());
            }
            log.sent(src, target, RAW_SOURCE_PORT, id, roce);
            return;
        }
        int srcPort = carriage.sourcePort(from);
        if (hasRoom) {
            int icrc = icrc(src, target, srcPort, 0, bb);
            IcrcCalculator.write(bb, roce.length - IcrcCalculator.LENGTH, badIcrc ? wrongForEveryId(src, target, srcPort, bb, icrc) : icrc);
        }
        carriage.send(roce, from, target);
        log.sent(src, target, srcPort, 0, roce);
    }

    private int icrc(PeerAddress src, PeerAddress dst, int srcPort, int id, ByteBuffer roce) {
        return framer.addresses(src.ipBytes(), dst.ipBytes()).ports(srcPort, PeerAddress.ROCE_PORT).identification(id)
                .flagsFragment(RoceFramer.FLAG_DONT_FRAGMENT).icrc(roce, 0, roce.limit());
    }

    /** An ICRC no IP identification makes right: the receiver cannot take it for a packet whose header it cannot see. */
    private int wrongForEveryId(PeerAddress src, PeerAddress dst, int srcPort, ByteBuffer roce, int good) {
        for (int flip = 1; ; flip++) {
            IcrcCalculator.write(roce, roce.limit() - IcrcCalculator.LENGTH, good ^ flip);
            if (solver.solve(src.ipv4(), dst.ipv4(), RoceFramer.FLAG_DONT_FRAGMENT, srcPort, PeerAddress.ROCE_PORT, roce, 0,
                    roce.limit()) == Ipv4IdentificationSolver.NO_SOLUTION) {
                return good ^ flip;
            }
        }
    }

    /** The next packet the target sent the tester, or null when none came before the deadline. */
    Answer receive(PeerAddress target, long deadlineNanos) {
        TesterCarriage.Arrival arrival = carriage.receive(target, deadlineNanos);
        if (arrival == null) {
            return null;
        }
        byte[] roce = arrival.roce();
        int id = roce.length < BthFlyweight.LENGTH + IcrcCalculator.LENGTH ? Ipv4IdentificationSolver.NO_SOLUTION
                : solver.solve(target.ipv4(), self.ipv4(), RoceFramer.FLAG_DONT_FRAGMENT, arrival.sourcePort(), PeerAddress.ROCE_PORT,
                ByteBuffer.wrap(roce), 0, roce.length);
        log.received(target, self, arrival.sourcePort(), Math.max(id, 0), roce);
        return Answer.parse(roce, id != Ipv4IdentificationSolver.NO_SOLUTION);
    }

    @Override
    public void close() {
        carriage.close();
        if (raw != null) {
            raw.close();
            rawThird.close();
        }
    }
}
