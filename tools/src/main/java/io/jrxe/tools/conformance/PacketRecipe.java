package io.jrxe.tools.conformance;

import io.jrxe.wire.header.AethFlyweight;
import io.jrxe.wire.header.AethSyndrome;
import io.jrxe.wire.header.AtomicEthFlyweight;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.header.DethFlyweight;
import io.jrxe.wire.header.IethFlyweight;
import io.jrxe.wire.header.ImmDtFlyweight;
import io.jrxe.wire.header.RethFlyweight;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.opcode.ExtensionHeader;
import io.jrxe.wire.opcode.Opcode;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The packet crafter: one packet the tester sends, as data (opcode, PSN relative to the case's start, address and
 * key, payload, flags) plus the damage done to it (transport version, P_Key, pad count, truncation, ICRC, source),
 * turned into bytes for a case's {@link CaseContext} by {@link #craft}. Addresses are offsets into the target's
 * buffer ({@link TargetLayout}) unless {@link #absoluteVa} says otherwise. The ICRC's four bytes are left for the
 * sender, which knows the IP header they cover.
 */
public final class PacketRecipe {
    /** Who sends it: the tester's own address (the QP's peer), or a third loopback address. */
    public enum Source { PEER, THIRD }

    /** Whose PSN numbering the packet's PSN counts in: the target's receive side, or its send side (responses). */
    private enum PsnBase { RECEIVE, SEND }

    private final int code;
    private final Opcode opcode;
    private PsnBase psnBase = PsnBase.RECEIVE;
    private int psnOffset;
    private boolean ackRequest = true;
    private long va;
    private boolean absoluteVa;
    private KeyChoice key = KeyChoice.MAIN;
    private long dmaLength;
    private long swapAdd;
    private long compare;
    private int payload;
    private int syndrome = AethSyndrome.ack(AethSyndrome.CREDITS_INVALID);
    private KeyChoice invalidate;
    private int qkey = TargetLayout.UD_QKEY;
    private boolean toUd;
    private int destQpn = -1;
    private int pad = -1;
    private int tver;
    private int pkey = BthFlyweight.DEFAULT_PKEY;
    private int truncateTo = -1;
    private Source source = Source.PEER;
    private boolean badIcrc;

    private PacketRecipe(Opcode opcode, int code) {
        this.opcode = opcode;
        this.code = code;
    }

    public static PacketRecipe of(Opcode opcode) {
        return new PacketRecipe(opcode, opcode.code());
    }

    /** A packet whose opcode byte is one the opcode table does not have: BTH and payload only. */
    public static PacketRecipe unknownOpcode(int code, int payload) {
        return new PacketRecipe(null, code).payload(payload);
    }

    /** A SEND packet carrying {@code payload} bytes. */
    public static PacketRecipe send(Opcode op, int payload) {
        return of(op).payload(payload);
    }

    /** An RDMA WRITE packet: a RETH (on FIRST and ONLY) for {@code length} bytes at {@code at}, and {@code payload} bytes. */
    public static PacketRecipe write(Opcode op, int at, long length, int payload) {
        return of(op).at(at, length).payload(payload);
    }

    public static PacketRecipe read(int at, long length) {
        return of(Opcode.RC_RDMA_READ_REQUEST).at(at, length);
    }

    public static PacketRecipe fetchAdd(int at, long add) {
        PacketRecipe r = of(Opcode.RC_FETCH_ADD).at(at, 8);
        r.swapAdd = add;
        return r;
    }

    public static PacketRecipe compareSwap(int at, long compare, long swap) {
        PacketRecipe r = of(Opcode.RC_COMPARE_SWAP).at(at, 8);
        r.compare = compare;
        r.swapAdd = swap;
        return r;
    }

    /**
     * A response (ACK, NAK, READ response, atomic ACK) to the target's requester side, {@code offset} PSNs after the
     * target's send PSN: the target never sent a request there.
     */
    public static PacketRecipe responseToTarget(Opcode op, int offset) {
        PacketRecipe r = of(op);
        r.psnBase = PsnBase.SEND;
        r.psnOffset = offset;
        r.ackRequest = false;
        return r;
    }

    /** A UD SEND to the target's UD QP, with this Q_Key in its DETH. */
    public static PacketRecipe udSend(int payload, int qkey) {
        PacketRecipe r = of(Opcode.UD_SEND_ONLY).payload(payload);
        r.toUd = true;
        r.qkey = qkey;
        r.ackRequest = false;
        return r;
    }

    /** The AETH's syndrome (an ACK by default). */
    public PacketRecipe syndrome(int value) {
        syndrome = value;
        return this;
    }

    /** The BTH names this QPN instead of the target's. */
    public PacketRecipe destQpn(int qpn) {
        destQpn = qpn;
        return this;
    }

    public PacketRecipe psn(int offset) {
        psnOffset = offset;
        return this;
    }

    public PacketRecipe at(long offset, long length) {
        va = offset;
        dmaLength = length;
        return this;
    }

    /** The RETH's or AtomicETH's address is {@code address} itself, not an offset into the target's buffer. */
    public PacketRecipe absoluteVa(long address, long length) {
        absoluteVa = true;
        return at(address, length);
    }

    public PacketRecipe key(KeyChoice k) {
        key = k;
        return this;
    }

    public PacketRecipe payload(int bytes) {
        payload = bytes;
        return this;
    }

    public PacketRecipe noAckRequest() {
        ackRequest = false;
        return this;
    }

    public PacketRecipe invalidating(KeyChoice k) {
        invalidate = k;
        return this;
    }

    /** The pad count field says {@code n}, whatever the payload needs (the bytes are there as the payload needs). */
    public PacketRecipe padCount(int n) {
        pad = n;
        return this;
    }

    public PacketRecipe transportVersion(int v) {
        tver = v;
        return this;
    }

    public PacketRecipe pkey(int p) {
        pkey = p;
        return this;
    }

    /** Only the first {@code bytes} of the packet leave (the ICRC's four included). */
    public PacketRecipe truncateTo(int bytes) {
        truncateTo = bytes;
        return this;
    }

    public PacketRecipe from(Source s) {
        source = s;
        return this;
    }

    /** The ICRC is wrong for every IP identification (the sender damages it). */
    public PacketRecipe badIcrc() {
        badIcrc = true;
        return this;
    }

    public Source source() {
        return source;
    }

    public boolean hasBadIcrc() {
        return badIcrc;
    }

    /** Whether the packet goes to the target's UD QP (which only an in-process target has). */
    public boolean needsUd() {
        return toUd;
    }

    public boolean needsWindow() {
        return key == KeyChoice.WINDOW || invalidate == KeyChoice.WINDOW;
    }

    /** The packet's bytes: BTH, extension headers, payload (0x5A), pad, and four zero bytes for the ICRC. */
    public byte[] craft(CaseContext c) {
        int headers = opcode == null ? BthFlyweight.LENGTH : opcode.headerLength();
        int padBytes = (4 - (payload & 3)) & 3;
        byte[] b = new byte[headers + payload + padBytes + IcrcCalculator.LENGTH];
        ByteBuffer bb = ByteBuffer.wrap(b);
        int psn = psnBase == PsnBase.SEND ? io.jrxe.wire.psn.Psn.add(c.targetSendPsn(), psnOffset) : c.psn(psnOffset);
        int dest = destQpn >= 0 ? destQpn : toUd ? c.udQpn() : c.targetQpn();
        new BthFlyweight().wrap(bb, 0).set(code, false, pad >= 0 ? pad : padBytes, pkey, dest, ackRequest, psn)
                .transportVersion(tver);
        Arrays.fill(b, headers, headers + payload, (byte) 0x5A);
        if (opcode != null) {
            extensionHeaders(bb, c);
        }
        return truncateTo >= 0 ? Arrays.copyOf(b, truncateTo) : b;
    }

    private void extensionHeaders(ByteBuffer bb, CaseContext c) {
        long address = absoluteVa ? va : c.bufferAddress() + va;
        int rkey = key.resolve(c);
        if (opcode.has(ExtensionHeader.RETH)) {
            new RethFlyweight().wrap(bb, opcode.offsetOf(ExtensionHeader.RETH)).set(address, rkey, dmaLength);
        }
        if (opcode.has(ExtensionHeader.ATOMIC_ETH)) {
            new AtomicEthFlyweight().wrap(bb, opcode.offsetOf(ExtensionHeader.ATOMIC_ETH)).set(address, rkey, swapAdd, compare);
        }
        if (opcode.has(ExtensionHeader.AETH)) {
            new AethFlyweight().wrap(bb, opcode.offsetOf(ExtensionHeader.AETH)).set(syndrome, 0);
        }
        if (opcode.has(ExtensionHeader.IMMDT)) {
            new ImmDtFlyweight().wrap(bb, opcode.offsetOf(ExtensionHeader.IMMDT)).immediate(0x0C0FFEE0);
        }
        if (opcode.has(ExtensionHeader.IETH)) {
            new IethFlyweight().wrap(bb, opcode.offsetOf(ExtensionHeader.IETH))
                    .rkey((invalidate == null ? KeyChoice.BOGUS : invalidate).resolve(c));
        }
        if (opcode.has(ExtensionHeader.DETH)) {
            new DethFlyweight().wrap(bb, opcode.offsetOf(ExtensionHeader.DETH)).set(qkey, c.testerQpn());
        }
    }
}
