package io.jrxe.verbs.sim;

import io.jrxe.rnic.device.Counter;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.wire.header.RethFlyweight;
import io.jrxe.wire.opcode.ExtensionHeader;
import io.jrxe.wire.opcode.Opcode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;

import static io.jrxe.verbs.sim.Ops.MS;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An ATOMIC WRITE whose payload is not 8 bytes (found by ResponderFuzzTest, group seed
 * 98931206793033: a pad count of 3 leaves 5 bytes) is an invalid request, not an engine error: a
 * responder that copied 8 bytes regardless would read past the payload.
 */
class AtomicWriteLengthTest {
    @ParameterizedTest(name = "{0} payload bytes")
    @ValueSource(ints = {0, 4, 5, 12, 16})
    void anAtomicWriteOfAnotherLengthIsAnInvalidRequestNotAnEngineError(int payload) throws Exception {
        try (SimPair p = new SimPair(payload, new SimPair.Config(QpType.RC))) {
            Opcode op = Opcode.RC_ATOMIC_WRITE;
            byte[] b = Forge.packet(op, p.b.qp.qpNum(), p.config.psn, payload);
            new RethFlyweight().wrap(ByteBuffer.wrap(b), op.offsetOf(ExtensionHeader.RETH))
                    .set(p.b.memory.address() + 64, p.b.mr.rkey(), 8);
            long sent = p.counter(p.b, Counter.SENT_PKTS);
            Forge.inject(p, p.a, p.b, b);
            p.run(MS, () -> p.counter(p.b, Counter.SENT_PKTS) > sent);
            assertThat(p.counter(p.b, Counter.ENGINE_ERROR)).as("engine errors").isZero();
            assertThat(p.b.memory.get(ValueLayout.JAVA_LONG_UNALIGNED, 64)).as("registered memory").isZero();
            assertThat(p.counter(p.b, Counter.SENT_PKTS)).as("a NAK answers it").isEqualTo(sent + 1);
            assertThat(p.b.qp.query().state()).as("an invalid request ends the responder's QP").isEqualTo(QpState.ERR);
        }
    }
}
