package io.jrxe.wire.sim;

import java.util.SplittableRandom;

/**
 * What carries the {@link SimulatedNetwork}'s packets from port to port in place of its per-direction delays: a
 * fabric of links and switches. It runs on the network's clock and draws from the network's one random, so that a
 * run still replays from its seed.
 */
public interface PacketPath {
    /**
     * Where a path hands back what it carried: each frame once, arrived or dropped. The frame is the path's again
     * when the call returns (it may set it for another datagram): keep its bytes, never the frame.
     */
    interface Ends {
        void arrived(Frame frame);

        void dropped(Frame frame);
    }

    /** Called once, when the network takes the path. */
    void install(VirtualTime time, SplittableRandom random, Ends ends);

    /**
     * A frame for {@link #carry} to {@link Frame#set set}: one of the path's own, which it takes back once the frame
     * has arrived or been dropped, so that a frame carried costs no object.
     */
    default Frame frame() {
        return new Frame();
    }

    /** A frame leaves its sender's port now. */
    void carry(Frame frame);
}
