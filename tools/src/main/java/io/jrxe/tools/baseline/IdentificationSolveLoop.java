package io.jrxe.tools.baseline;

import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.icrc.Ipv4IdentificationSolver;

import java.nio.ByteBuffer;

/**
 * One thread doing what a UDP port does to each IPv4 packet it receives: {@link Ipv4IdentificationSolver#solve}
 * finds the IP identification the sender's kernel gave the datagram from the packet's ICRC, which checks the ICRC
 * at the same time. The packets carry ICRCs for identifications as a kernel hands them out, one after another; each
 * unit solves the next and compares the answer with the identification it was stamped for, so a wrong answer counts
 * ({@link #wrongAnswers}) and the work cannot be dropped.
 */
final class IdentificationSolveLoop extends TimedLoop {
    /** Packets cycled through: as many as one flow's packets in flight, a few, and in cache together. */
    static final int PACKETS = 16;
    private static final int FIRST_IDENTIFICATION = 0x1234;

    private final Ipv4IdentificationSolver solver = new Ipv4IdentificationSolver();
    private final ByteBuffer packets;
    private final int length;
    private int next;
    private long wrongAnswers;

    IdentificationSolveLoop(int payloadBytes) {
        packets = SamplePackets.of(PACKETS, payloadBytes);
        length = SamplePackets.packetBytes(payloadBytes);
        IcrcCalculator icrc = new IcrcCalculator();
        for (int k = 0; k < PACKETS; k++) {
            int value = icrc.ipv4(SamplePackets.SOURCE_ADDRESS, SamplePackets.DESTINATION_ADDRESS, identification(k),
                    SamplePackets.FLAGS_FRAGMENT, SamplePackets.SOURCE_PORT, SamplePackets.DESTINATION_PORT, packets,
                    k * length, length);
            IcrcCalculator.write(packets, k * length + length - IcrcCalculator.LENGTH, value);
        }
    }

    /** The identification packet {@code k} was stamped for. */
    private static int identification(int k) {
        return FIRST_IDENTIFICATION + k;
    }

    @Override
    void repeat(int units) {
        long s = sink;
        long wrong = wrongAnswers;
        int k = next;
        for (int i = 0; i < units; i++) {
            int id = solver.solve(SamplePackets.SOURCE_ADDRESS, SamplePackets.DESTINATION_ADDRESS,
                    SamplePackets.FLAGS_FRAGMENT, SamplePackets.SOURCE_PORT, SamplePackets.DESTINATION_PORT, packets,
                    k * length, length);
            if (id != identification(k)) {
                wrong++;
            }
            s += id;
            k = k + 1 == PACKETS ? 0 : k + 1;
        }
        next = k;
        wrongAnswers = wrong;
        sink = s;
    }

    @Override
    int bytesPerUnit() {
        return length;
    }

    /** Units whose solved identification was not the one the packet was stamped for: 0 unless the solver is wrong. */
    long wrongAnswers() {
        return wrongAnswers;
    }
}
