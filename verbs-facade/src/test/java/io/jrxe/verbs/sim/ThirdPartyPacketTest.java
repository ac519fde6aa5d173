package io.jrxe.verbs.sim;

import io.jrxe.rnic.device.Counter;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.header.AethSyndrome;
import io.jrxe.wire.header.RethFlyweight;
import io.jrxe.wire.opcode.ExtensionHeader;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.port.PeerAddress;
import org.junit.jupiter.api.Test;

import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.nio.ByteBuffer;

import static io.jrxe.verbs.sim.Ops.MS;
import static io.jrxe.verbs.sim.Ops.wr;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Only the peer speaks for a connection (rxe's address check): an RC packet from a third address,
 * right in every field an off-path attacker can guess (QPN, PSN, R_Key, address), changes
 * nothing; the same packet from the peer is executed, so the check is what stops it.
 */
class ThirdPartyPacketTest {
    private static final int PSN = 0x1000;

    private static byte[] write(SimPair p, int psn) {
        Opcode op = Opcode.RC_RDMA_WRITE_ONLY;
        byte[] b = Forge.packet(op, p.b.qp.qpNum(), psn, 8);
        new RethFlyweight().wrap(ByteBuffer.wrap(b), op.offsetOf(ExtensionHeader.RETH)).set(p.b.memory.address(), p.b.mr.rkey(), 8);
        return b;
    }

    private static PeerAddress attacker(SimPair p) throws Exception {
        PeerAddress third = PeerAddress.of(InetAddress.getByName("10.0.0.3"));
        p.attach(third);
        return third;
    }

    @Test
    void aWriteFromAThirdAddressNeverTouchesMemory() throws Exception {
        try (SimPair p = new SimPair(1, new SimPair.Config(QpType.RC).psn(PSN))) {
            PeerAddress third = attacker(p);
            long sentBefore = p.counter(p.b, Counter.SENT_PKTS);
            p.inject(third, p.b.address, write(p, PSN), Forge.SRC_PORT);
            p.run(MS, () -> p.counter(p.b, Counter.DROP_WRONG_ADDRESS) > 0);
            assertThat(p.b.memory.get(ValueLayout.JAVA_LONG_UNALIGNED, 0)).as("registered memory").isZero();
            assertThat(p.counter(p.b, Counter.DROP_WRONG_ADDRESS)).isEqualTo(1);
            assertThat(p.counter(p.b, Counter.SENT_PKTS)).as("no ACK or NAK for it").isEqualTo(sentBefore);
            BadPacketTest.stillWorks(p); // the PSN it took was not consumed: the peer's next request is in sequence
        }
    }

    @Test
    void theSameWriteFromThePeerIsExecuted() throws Exception {
        try (SimPair p = new SimPair(2, new SimPair.Config(QpType.RC).psn(PSN))) {
            Forge.inject(p, p.a, p.b, write(p, PSN));
            p.run(MS, () -> p.b.memory.get(ValueLayout.JAVA_LONG_UNALIGNED, 0) != 0);
            assertThat(p.b.memory.get(ValueLayout.JAVA_LONG_UNALIGNED, 0)).isEqualTo(0x5A5A5A5A5A5A5A5AL);
            assertThat(p.counter(p.b, Counter.DROP_WRONG_ADDRESS)).isZero();
        }
    }

    @Test
    void aForgedAckCompletesNothing() throws Exception {
        try (SimPair p = new SimPair(3, new SimPair.Config(QpType.RC).psn(PSN))) {
            PeerAddress third = attacker(p);
            Wire.on(p).drop(1, Wire.opcode(Opcode.RC_SEND_ONLY)); // the peer never gets (nor acknowledges) the first try
            p.b.qp.postRecv(Ops.recv(p.b, 0, 64, 7));
            p.a.qp.postSend(wr(p.a, WrOpcode.SEND, 0, 64));
            p.inject(third, p.a.address, Forge.ack(p.a.qp.qpNum(), PSN, AethSyndrome.ack(AethSyndrome.CREDITS_INVALID)),
                    Forge.SRC_PORT);
            p.run(MS, () -> p.counter(p.a, Counter.DROP_WRONG_ADDRESS) > 0);
            assertThat(p.sendCompletions(p.a)).as("completed by a forged ACK").isEmpty();
            assertThat(p.counter(p.a, Counter.DROP_WRONG_ADDRESS)).isEqualTo(1);
            p.awaitOn(p.a, 1, 0, 1000 * MS); // the retransmission reaches the peer, whose ACK completes it
            assertThat(p.sendCompletions(p.a)).extracting(WorkCompletion::status).containsExactly(WcStatus.SUCCESS);
            assertThat(p.recvCompletions(p.b)).hasSize(1);
        }
    }
}
