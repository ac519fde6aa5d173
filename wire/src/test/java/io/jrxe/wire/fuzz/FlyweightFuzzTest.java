package io.jrxe.wire.fuzz;

import io.jrxe.wire.cm.AprFlyweight;
import io.jrxe.wire.cm.CmAttribute;
import io.jrxe.wire.cm.CmMessageFlyweight;
import io.jrxe.wire.cm.DrepFlyweight;
import io.jrxe.wire.cm.DreqFlyweight;
import io.jrxe.wire.cm.IpCmHeaderFlyweight;
import io.jrxe.wire.cm.LapFlyweight;
import io.jrxe.wire.cm.MadHeaderFlyweight;
import io.jrxe.wire.cm.MraFlyweight;
import io.jrxe.wire.cm.RejFlyweight;
import io.jrxe.wire.cm.RepFlyweight;
import io.jrxe.wire.cm.ReqFlyweight;
import io.jrxe.wire.cm.RtuFlyweight;
import io.jrxe.wire.cm.SidrRepFlyweight;
import io.jrxe.wire.cm.SidrReqFlyweight;
import io.jrxe.wire.header.AethFlyweight;
import io.jrxe.wire.header.AtomicAckEthFlyweight;
import io.jrxe.wire.header.AtomicEthFlyweight;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.header.DethFlyweight;
import io.jrxe.wire.header.FethFlyweight;
import io.jrxe.wire.header.Flyweight;
import io.jrxe.wire.header.IethFlyweight;
import io.jrxe.wire.header.ImmDtFlyweight;
import io.jrxe.wire.header.RethFlyweight;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.opcode.ExtensionHeader;
import io.jrxe.wire.opcode.Opcode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seeded mutations of every golden RoCE packet read through the header flyweights the way the
 * engines read them (DataPath admits a packet only when its opcode's headers and the ICRC fit, then
 * wraps each extension header at the opcode's offset), and of every golden CM MAD read through the
 * MAD header, the CM message flyweight of its attribute and the IP CM header of its private data.
 * An admitted packet or a MAD that {@link CmMessageFlyweight#fits} must read without any exception;
 * anything else may only fail with the buffer's IndexOutOfBoundsException, which is the flyweights'
 * documented way to refuse a read past the end. A failure names its seed and shows the bytes; rerun
 * it with {@code -Djrxe.fuzz.seed=SEED -Djrxe.fuzz.flyweight.cases=1}.
 */
class FlyweightFuzzTest {
    private static final long BASE_SEED = Long.getLong("jrxe.fuzz.seed", 0x0F1_7E16L);
    private static final int CASES = Integer.getInteger("jrxe.fuzz.flyweight.cases", 300_000);

    private static List<GoldenRoce.Frame> frames;
    private static List<byte[]> mads;

    @BeforeAll
    static void load() {
        frames = GoldenRoce.load();
        mads = frames.stream().map(GoldenRoce.Frame::roce)
                .filter(r -> (r[0] & 0xFF) == Opcode.UD_SEND_ONLY.code()
                        && new BthFlyweight().wrap(ByteBuffer.wrap(r), 0).destQpn() == MadHeaderFlyweight.GSI_QPN)
                .map(r -> java.util.Arrays.copyOfRange(r, Opcode.UD_SEND_ONLY.headerLength(),
                        Opcode.UD_SEND_ONLY.headerLength() + MadHeaderFlyweight.MAD_LENGTH))
                .toList();
        assertThat(mads).as("CM MADs in the golden captures").hasSizeGreaterThan(10);
    }

    @Test
    void headersOfAdmittedPacketsReadInsideThePacket() {
        BthFlyweight bth = new BthFlyweight();
        Map<ExtensionHeader, Flyweight<?>> flyweights = extensionFlyweights();
        Map<ExtensionHeader, EveryGetter> getters = new EnumMap<>(ExtensionHeader.class);
        flyweights.forEach((h, f) -> getters.put(h, new EveryGetter(f.getClass())));
        EveryGetter bthGetters = new EveryGetter(BthFlyweight.class);
        int admitted = 0;
        for (int i = 0; i < CASES; i++) {
            long seed = BASE_SEED + i;
            Random random = new Random(seed);
            Mutator mutator = new Mutator(random, 64);
            byte[] roce = mutator.mutate(pick(random).roce(), pick(random).roce());
            try {
                // Exactly the slice an engine is given: nothing past the UDP payload is readable.
                ByteBuffer buffer = ByteBuffer.wrap(roce).slice();
                if (roce.length < BthFlyweight.LENGTH + IcrcCalculator.LENGTH) {
                    continue; // the port drops these as TOO_SHORT before any engine sees them
                }
                bthGetters.readAll(bth.wrap(buffer, 0));
                Opcode opcode = Opcode.of(bth.opcode());
                int payloadAndPad = opcode == null ? -1 : roce.length - opcode.headerLength() - IcrcCalculator.LENGTH;
                boolean admit = opcode != null && bth.transportVersion() == 0 && payloadAndPad >= 0
                        && (opcode.hasPayload() || payloadAndPad == 0) && bth.padCount() <= payloadAndPad;
                if (!admit) {
                    continue;
                }
                admitted++;
                for (int h = 0; h < opcode.headerCount(); h++) {
                    ExtensionHeader header = opcode.header(h);
                    Flyweight<?> f = flyweights.get(header);
                    if (f != null) {
                        getters.get(header).readAll(f.wrap(buffer, opcode.offsetOf(header)));
                        assertThat(opcode.offsetOf(header) + f.length()).isLessThanOrEqualTo(opcode.headerLength());
                    }
                }
                int payloadLength = payloadAndPad - bth.padCount();
                buffer.get(opcode.headerLength(), new byte[payloadLength]);
                assertThat(opcode.headerLength() + payloadLength + bth.padCount() + IcrcCalculator.LENGTH)
                        .isEqualTo(roce.length);
            } catch (Throwable t) {
                throw failure(seed, mutator, roce, t);
            }
        }
        System.out.printf("FlyweightFuzzTest headers: %d mutated packets, %d admitted and read%n", CASES, admitted);
        assertThat(admitted).as("mutations that still pass the engine's checks").isGreaterThan(CASES / 10);
    }

    @Test
    void cmMadsThatFitReadWithoutException() {
        MadHeaderFlyweight mad = new MadHeaderFlyweight();
        EveryGetter madGetters = new EveryGetter(MadHeaderFlyweight.class);
        Map<CmAttribute, CmMessageFlyweight<?>> messages = cmFlyweights();
        Map<CmAttribute, EveryGetter> getters = new EnumMap<>(CmAttribute.class);
        messages.forEach((a, f) -> getters.put(a, new EveryGetter(f.getClass())));
        IpCmHeaderFlyweight ipCm = new IpCmHeaderFlyweight();
        EveryGetter ipCmGetters = new EveryGetter(IpCmHeaderFlyweight.class);
        int cases = CASES * 2 / 3;
        int decoded = 0;
        int refused = 0;
        for (int i = 0; i < cases; i++) {
            long seed = BASE_SEED + 7_000_000 + i;
            Random random = new Random(seed);
            Mutator mutator = new Mutator(random, MadHeaderFlyweight.LENGTH + 64);
            byte[] bytes = mutator.mutate(mads.get(random.nextInt(mads.size())), mads.get(random.nextInt(mads.size())));
            if (random.nextInt(4) == 0 && bytes.length > MadHeaderFlyweight.ATTRIBUTE_ID_OFFSET + 2) {
                // Any attribute, so every message's flyweight meets every other message's bytes.
                CmAttribute any = CmAttribute.values()[random.nextInt(CmAttribute.values().length)];
                ByteBuffer.wrap(bytes).putShort(MadHeaderFlyweight.ATTRIBUTE_ID_OFFSET, (short) any.id());
            }
            ByteBuffer buffer = ByteBuffer.wrap(bytes).slice();
            try {
                if (bytes.length < MadHeaderFlyweight.LENGTH) {
                    continue;
                }
                madGetters.readAll(mad.wrap(buffer, 0));
                CmAttribute attribute = CmAttribute.of(mad.attributeId());
                CmMessageFlyweight<?> message = attribute == null ? null : messages.get(attribute);
                if (message == null) {
                    continue;
                }
                message.wrap(buffer, MadHeaderFlyweight.LENGTH);
                if (!message.fits()) {
                    refused++;
                    try {
                        getters.get(attribute).readAll(message);
                    } catch (IndexOutOfBoundsException documented) {
                        // the flyweights' way to refuse a read past the buffer
                    }
                    continue;
                }
                decoded++;
                getters.get(attribute).readAll(message);
                if (message.privateDataLength() >= ipCm.length()) {
                    ipCmGetters.readAll(ipCm.wrap(buffer, message.privateDataOffset()));
                }
            } catch (Throwable t) {
                throw failure(seed, mutator, bytes, t);
            }
        }
        System.out.printf("FlyweightFuzzTest CM: %d mutated MADs, %d read whole, %d refused as too short%n",
                cases, decoded, refused);
        assertThat(decoded).isGreaterThan(cases / 4);
        assertThat(refused).isPositive();
    }

    private static GoldenRoce.Frame pick(Random random) {
        return frames.get(random.nextInt(frames.size()));
    }

    static AssertionError failure(long seed, Mutator mutator, byte[] bytes, Throwable t) {
        return new AssertionError("seed " + seed + " (mutations " + mutator.applied() + ") " + Mutator.hex(bytes)
                + ": " + t, t);
    }

    private static Map<ExtensionHeader, Flyweight<?>> extensionFlyweights() {
        Map<ExtensionHeader, Flyweight<?>> m = new EnumMap<>(ExtensionHeader.class);
        m.put(ExtensionHeader.DETH, new DethFlyweight());
        m.put(ExtensionHeader.FETH, new FethFlyweight());
        m.put(ExtensionHeader.RETH, new RethFlyweight());
        m.put(ExtensionHeader.ATOMIC_ETH, new AtomicEthFlyweight());
        m.put(ExtensionHeader.AETH, new AethFlyweight());
        m.put(ExtensionHeader.ATOMIC_ACK_ETH, new AtomicAckEthFlyweight());
        m.put(ExtensionHeader.IMMDT, new ImmDtFlyweight());
        m.put(ExtensionHeader.IETH, new IethFlyweight());
        return m;
    }

    private static Map<CmAttribute, CmMessageFlyweight<?>> cmFlyweights() {
        Map<CmAttribute, CmMessageFlyweight<?>> m = new EnumMap<>(CmAttribute.class);
        for (CmMessageFlyweight<?> f : List.of(new ReqFlyweight(), new MraFlyweight(), new RejFlyweight(),
                new RepFlyweight(), new RtuFlyweight(), new DreqFlyweight(), new DrepFlyweight(), new SidrReqFlyweight(),
                new SidrRepFlyweight(), new LapFlyweight(), new AprFlyweight())) {
            m.put(f.attribute(), f);
        }
        assertThat(m.keySet()).as("a flyweight for every CM message")
                .containsExactlyInAnyOrderElementsOf(java.util.Arrays.stream(CmAttribute.values())
                        .filter(CmAttribute::isMessage).toList());
        return m;
    }
}
