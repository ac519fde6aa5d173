package io.jrxe.wire.dissect;

import io.jrxe.wire.framing.LinkType;
import io.jrxe.wire.framing.RoceFramer;
import io.jrxe.wire.header.AethFlyweight;
import io.jrxe.wire.header.AtomicAckEthFlyweight;
import io.jrxe.wire.header.AtomicEthFlyweight;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.header.DethFlyweight;
import io.jrxe.wire.header.FethFlyweight;
import io.jrxe.wire.header.IethFlyweight;
import io.jrxe.wire.header.ImmDtFlyweight;
import io.jrxe.wire.header.RethFlyweight;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.opcode.Opcode;

import java.nio.ByteBuffer;

/**
 * Builds an Ethernet frame from a {@link DissectedPacket}'s decoded fields with jrxe's own
 * encoders: header flyweights, {@link RoceFramer}, a freshly computed IP checksum and ICRC.
 * Re-encoding a captured packet and getting the same bytes back proves the codecs exact.
 */
public final class PacketEncoder {
    private final RoceFramer framer = new RoceFramer();
    private final BthFlyweight bth = new BthFlyweight();
    private final RethFlyweight reth = new RethFlyweight();
    private final AethFlyweight aeth = new AethFlyweight();
    private final AtomicEthFlyweight atomicEth = new AtomicEthFlyweight();
    private final DethFlyweight deth = new DethFlyweight();
    private final AtomicAckEthFlyweight atomicAckEth = new AtomicAckEthFlyweight();
    private final ImmDtFlyweight immDt = new ImmDtFlyweight();
    private final IethFlyweight ieth = new IethFlyweight();
    private final FethFlyweight feth = new FethFlyweight();

    public byte[] encode(DissectedPacket p) {
        if (!p.isRoce() || p.opcode() == null || p.linkType() != LinkType.ETHERNET || p.ethernet() == null) {
            throw new IllegalArgumentException("frame " + p.frame() + " is not a well-formed RoCEv2 packet over Ethernet");
        }
        Opcode opcode = p.opcode();
        int roceLength = opcode.headerLength() + p.payload().length + p.pad().length + IcrcCalculator.LENGTH;
        HeaderFields.Ip ip = p.ip();
        framer.addresses(ip.src(), ip.dst())
                .macs(p.ethernet().srcMac(), p.ethernet().dstMac())
                .ports(p.udp().srcPort(), p.udp().dstPort())
                .identification(ip.identification())
                .flagsFragment(ip.flagsFragment())
                .ttl(ip.ttl())
                .tos(ip.tos())
                .flowLabel(ip.flowLabel())
                .udpChecksum(p.udp().checksum());
        int headers = framer.headerLength();
        byte[] frame = new byte[headers + roceLength + p.trailer().length];
        ByteBuffer buffer = ByteBuffer.wrap(frame);
        framer.writeHeaders(buffer, 0, roceLength);

        HeaderFields.Bth b = p.bth();
        bth.wrap(buffer, headers)
                .opcode(b.opcode())
                .solicitedEvent(b.solicitedEvent())
                .migReq(b.migReq())
                .padCount(b.padCount())
                .transportVersion(b.transportVersion())
                .pkey(b.pkey())
                .fecn(b.fecn())
                .becn(b.becn())
                .reserved6(b.reserved6())
                .destQpn(b.destQpn())
                .ackRequest(b.ackRequest())
                .reserved7(b.reserved7())
                .psn(b.psn());
        int at = headers + BthFlyweight.LENGTH;
        for (Record r : p.extensions()) {
            at += writeExtension(buffer, at, r);
        }
        buffer.put(at, p.payload());
        at += p.payload().length;
        buffer.put(at, p.pad());
        at += p.pad().length;
        IcrcCalculator.write(buffer, at, framer.icrc(buffer, headers, roceLength));
        buffer.put(at + IcrcCalculator.LENGTH, p.trailer());
        return frame;
    }

    private int writeExtension(ByteBuffer buffer, int at, Record header) {
        switch (header) {
            case HeaderFields.Reth r -> {
                reth.wrap(buffer, at).set(r.virtualAddress(), r.rkey(), r.dmaLength());
                return RethFlyweight.LENGTH;
            }
            case HeaderFields.Aeth a -> {
                aeth.wrap(buffer, at).set(a.syndrome(), a.msn());
                return AethFlyweight.LENGTH;
            }
            case HeaderFields.AtomicEth a -> {
                atomicEth.wrap(buffer, at).set(a.virtualAddress(), a.rkey(), a.swapAdd(), a.compare());
                return AtomicEthFlyweight.LENGTH;
            }
            case HeaderFields.AtomicAckEth a -> {
                atomicAckEth.wrap(buffer, at).originalData(a.originalData());
                return AtomicAckEthFlyweight.LENGTH;
            }
            case HeaderFields.ImmDt i -> {
                immDt.wrap(buffer, at).immediate(i.immediate());
                return ImmDtFlyweight.LENGTH;
            }
            case HeaderFields.Ieth i -> {
                ieth.wrap(buffer, at).rkey(i.rkey());
                return IethFlyweight.LENGTH;
            }
            case HeaderFields.Deth d -> {
                deth.wrap(buffer, at).qkey(d.qkey()).reserved(d.reserved()).srcQpn(d.srcQpn());
                return DethFlyweight.LENGTH;
            }
            case HeaderFields.Feth f -> {
                feth.wrap(buffer, at).bits(f.bits());
                return FethFlyweight.LENGTH;
            }
            case HeaderFields.CnpReserved c -> {
                buffer.put(at, c.bytes());
                return c.bytes().length;
            }
            default -> throw new IllegalArgumentException("not an extension header: " + header);
        }
    }
}
