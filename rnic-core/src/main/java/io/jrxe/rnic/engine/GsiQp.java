package io.jrxe.rnic.engine;

import io.jrxe.rnic.device.Counters;
import io.jrxe.wire.port.PacketPort;
import io.jrxe.rnic.device.Counter;
import io.jrxe.rnic.device.Port;
import io.jrxe.wire.cm.MadHeaderFlyweight;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.header.DethFlyweight;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.opcode.ExtensionHeader;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.port.DropReason;
import io.jrxe.wire.port.PacketInfo;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.RoceSourcePort;
import io.jrxe.wire.psn.Psn;

import java.nio.ByteBuffer;

/**
 * The port's General Services Interface QP, QP1: a UD QP with the well-known Q_Key 0x80010000
 * that carries every general MAD (the CM's among them) as one 256-byte UD SEND ONLY. The receive
 * dispatch hands it every packet for QP 1; it checks what IBTA asks of QP1 (UD SEND ONLY, a
 * P_Key that matches an entry of the port's table, whatever its index, the GSI Q_Key, one whole
 * MAD, base version 1, a class with an agent and that agent's class version) and copies the MAD
 * into the class's {@link MadAgent}'s inbox, which the agent drains in its own task. Anything else is dropped and counted by reason in
 * {@link GsiCounters}, never thrown.
 *
 * <p>It sends for its agents: {@link #send} frames a MAD as rxe does (BTH P_Key 0xFFFF to QP 1,
 * DETH with the GSI Q_Key from QP 1, UDP source port of QP 1's hash: 55410, as in the golden
 * captures). Runs on the NIC thread.
 */
public final class GsiQp {
    private static final Opcode OPCODE = Opcode.UD_SEND_ONLY;
    private static final int MAD_OFFSET = OPCODE.headerLength();
    private static final int SOURCE_PORT = RoceSourcePort.datagram(MadHeaderFlyweight.GSI_QPN);

    private final Port port;
    private final PacketPort packets;
    private final Counters deviceCounters;
    private final Drops drops;
    private final GsiCounters counters = new GsiCounters();
    private final MadAgent[] agents = new MadAgent[256];
    /** Where a MAD with a blank header goes instead of being dropped, or null: see {@link #acceptBlankHeaders}. */
    private MadAgent blankHeaders;
    private final ByteBuffer tx = ByteBuffer.allocateDirect(MAD_OFFSET + MadHeaderFlyweight.MAD_LENGTH + IcrcCalculator.LENGTH);
    private final MadHeaderFlyweight header = new MadHeaderFlyweight();
    private final DethFlyweight deth = new DethFlyweight();
    private final BthFlyweight txBth = new BthFlyweight();
    private int psn;

    GsiQp(Port port, PacketPort packets, Counters deviceCounters, Drops drops) {
        this.port = port;
        this.packets = packets;
        this.deviceCounters = deviceCounters;
        this.drops = drops;
    }

    public GsiCounters counters() {
        return counters;
    }

    /** Installs the agent of a management class (one per class; null removes it). */
    public void register(int managementClass, MadAgent agent) {
        agents[managementClass & 0xFF] = agent;
    }

    /**
     * Hands MADs whose 24-byte header is all zero to {@code agent} (null: drops them again, as of a bad base
     * version). Linux 7.2's rxe answers PerfMgmt Gets so; the PMA takes them while it waits for an answer.
     */
    public void acceptBlankHeaders(MadAgent agent) {
        blankHeaders = agent;
    }

    /** An agent's report that it could not use the MAD it was handed. */
    public void dropped(MadDropReason reason) {
        counters.countDropped(reason);
    }

    /** Receives a packet for QP 1, parsed by the dispatch. */
    void receive(RxPacket p) {
        if (p.opcode != OPCODE) {
            reject(MadDropReason.WRONG_OPCODE, DropReason.WRONG_TRANSPORT, p);
            return;
        }
        if (!pkeyInTable(p.pkey)) {
            reject(MadDropReason.BAD_PKEY, DropReason.BAD_PKEY, p);
            return;
        }
        DethFlyweight d = deth.wrap(p.buffer, p.at(ExtensionHeader.DETH));
        if (d.qkey() != MadHeaderFlyweight.GSI_QKEY) {
            reject(MadDropReason.BAD_QKEY, DropReason.BAD_QKEY, p);
            return;
        }
        if (p.payloadLength != MadHeaderFlyweight.MAD_LENGTH) {
            reject(MadDropReason.BAD_LENGTH, DropReason.MALFORMED, p);
            return;
        }
        deviceCounters.increment(Counter.RCVD_PKTS);
        deviceCounters.add(Counter.RCVD_BYTES, Counter.ipPacketLength(p.length, p.info.source.ipv6()));
        MadHeaderFlyweight h = header.wrap(p.buffer, p.payloadOffset);
        if (h.baseVersion() != MadHeaderFlyweight.BASE_VERSION) {
            if (blankHeaders != null && h.isBlank()) {
                deliver(blankHeaders, p, d.srcQpn());
            } else {
                counters.countDropped(MadDropReason.BAD_BASE_VERSION);
            }
            return;
        }
        MadAgent agent = agents[h.managementClass()];
        if (agent == null) {
            counters.countDropped(MadDropReason.UNKNOWN_CLASS);
            return;
        }
        if (h.classVersion() != agent.classVersion()) {
            counters.countDropped(MadDropReason.BAD_CLASS_VERSION);
            return;
        }
        deliver(agent, p, d.srcQpn());
    }

    /** Hands the MAD to the agent, with the QP it came from (where a response goes). */
    private void deliver(MadAgent agent, RxPacket p, int sourceQp) {
        if (!agent.inbox().offer(p.buffer, p.payloadOffset, p.info.source, p.pkey, sourceQp)) {
            counters.countDropped(MadDropReason.AGENT_BUSY);
            return;
        }
        counters.countReceived();
    }

    /**
     * IBTA 10.9.3: QP1 takes a packet whose P_Key matches any entry of the port's table (not only
     * the one its own P_Key index names): the same 15-bit key, and not both limited members.
     */
    private boolean pkeyInTable(int pkey) {
        for (int i = 0; i < port.pkeyTableLength(); i++) {
            int entry = port.pkey(i);
            if ((entry & 0x7FFF) == (pkey & 0x7FFF) && ((entry | pkey) & 0x8000) != 0) {
                return true;
            }
        }
        return false;
    }

    private void reject(MadDropReason reason, DropReason packetReason, RxPacket p) {
        counters.countDropped(reason);
        drops.drop(packetReason, MadHeaderFlyweight.GSI_QPN, p);
    }

    /** Sends the 256-byte MAD at mad[0, 256) to the GSI of the node at {@code to}. */
    public void send(ByteBuffer mad, PeerAddress to) {
        send(mad, to, MadHeaderFlyweight.GSI_QPN);
    }

    /**
     * Sends the 256-byte MAD at mad[0, 256) to QP {@code destQp} of the node at {@code to}: a response goes to the QP
     * its request came from (the request's DETH source QP), which is QP1 for a kernel's agents and a UD QP of its own
     * for a program that sends GMPs itself.
     */
    public void send(ByteBuffer mad, PeerAddress to, int destQp) {
        ByteBuffer t = tx;
        txBth.wrap(t, 0).set(OPCODE.code(), false, 0, BthFlyweight.DEFAULT_PKEY, destQp, true, psn); // AckReq set, as rxe sends its MADs
        psn = Psn.next(psn);
        deth.wrap(t, OPCODE.offsetOf(ExtensionHeader.DETH)).set(MadHeaderFlyweight.GSI_QKEY, MadHeaderFlyweight.GSI_QPN);
        t.put(MAD_OFFSET, mad, 0, MadHeaderFlyweight.MAD_LENGTH);
        packets.send(t, 0, MAD_OFFSET + MadHeaderFlyweight.MAD_LENGTH + IcrcCalculator.LENGTH, to, SOURCE_PORT);
        // A MAD answers a peer that waits on it (a DREP, which the real rping's exit races), while the NIC's turn
        // goes on to hand events to the program: it leaves now, not at the end of the turn.
        packets.flush();
        deviceCounters.increment(Counter.SENT_PKTS);
        deviceCounters.add(Counter.SENT_BYTES, Counter.ipPacketLength(MAD_OFFSET + MadHeaderFlyweight.MAD_LENGTH + IcrcCalculator.LENGTH, to.ipv6()));
        counters.countSent();
    }
}
