package io.jrxe.tools.view;

import java.util.List;

/**
 * The packets of a capture the ladder draws, and what was left out.
 *
 * @param packets    the RoCEv2 packets, copies folded in, in capture order
 * @param frames     frames read
 * @param notRoce    frames read that are not RoCEv2 (ARP, other UDP, ...), not drawn
 * @param copies     frames read that were copies of a packet already drawn
 * @param truncated  true when the capture has more packets than the cap allowed to draw
 * @param maxPackets the cap
 * @param damage     why reading stopped early (a truncated or damaged file), or null
 */
record LoadedCapture(List<ViewPacket> packets, long frames, long notRoce, long copies, boolean truncated, int maxPackets,
                     String damage) {
}
