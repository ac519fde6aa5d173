package io.jrxe.verbs.sim;

import io.jrxe.verbs.AsyncEvent;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.header.AethSyndrome;
import io.jrxe.wire.header.NakCode;
import io.jrxe.wire.opcode.Opcode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.jrxe.verbs.sim.Ops.MS;
import static io.jrxe.verbs.sim.Ops.id;
import static io.jrxe.verbs.sim.Ops.rdma;
import static io.jrxe.verbs.sim.Ops.recv;
import static io.jrxe.verbs.sim.Ops.wr;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Errors the responder finds (IBTA class C): the requester's work request fails with the
 * NAK's status, both QPs end in the error state and their outstanding work is flushed.
 */
class RemoteErrorTest {
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"RDMA_WRITE", "RDMA_READ", "ATOMIC_FETCH_AND_ADD"})
    void anRkeyViolationFailsTheRequesterAndTakesTheResponderToError(WrOpcode op) throws Exception {
        try (SimPair p = new SimPair(1, new SimPair.Config(QpType.RC))) {
            Wire wire = Wire.on(p);
            p.b.qp.postRecv(recv(p.b, 0, 100, 50));
            SendWr bad = id(rdma(p.a, op, 0, 8, p.b, 64), 1);
            bad.rkey = p.b.mr.rkey() + 0x100; // another index: no such key
            p.a.qp.postSend(bad.next(id(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 8, p.b, 64), 2)));
            p.awaitCompletions(2, 1, 10 * MS);

            assertThat(p.sendCompletions(p.a)).extracting(WorkCompletion::status)
                    .containsExactly(WcStatus.REM_ACCESS_ERR, WcStatus.WR_FLUSH_ERR);
            Wire.Packet nak = wire.matching(Wire.fromSide(p.b)).getFirst();
            assertThat(nak.syndrome()).isEqualTo(AethSyndrome.nak(NakCode.REMOTE_ACCESS_ERROR));
            assertThat(p.a.qp.query().state()).isEqualTo(QpState.ERR);
            // As rxe (do_class_ac_error): the responder's QP goes to the error state too, its receives flushed.
            assertThat(p.b.qp.query().state()).isEqualTo(QpState.ERR);
            assertThat(p.recvCompletions(p.b)).extracting(WorkCompletion::status).containsExactly(WcStatus.WR_FLUSH_ERR);
            AsyncEvent event = p.b.ctx.pollAsyncEvent();
            assertThat(event).isNotNull();
            assertThat(event.element()).isEqualTo(p.b.qp.qpNum());
        }
    }

    @Test
    void aWriteOutsideTheMrIsARemoteAccessError() throws Exception {
        try (SimPair p = new SimPair(2, new SimPair.Config(QpType.RC))) {
            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 2000, p.b, (1 << 20) - 1000));
            p.awaitOn(p.a, 1, 0, 10 * MS);
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.REM_ACCESS_ERR);
        }
    }

    @Test
    void aMiddlePacketWithoutAFirstIsAnInvalidRequest() throws Exception {
        try (SimPair p = new SimPair(3, new SimPair.Config(QpType.RC))) {
            Wire wire = Wire.on(p).rewrite(1, Wire.opcode(Opcode.RC_SEND_ONLY),
                    bytes -> bytes[0] = (byte) Opcode.RC_SEND_MIDDLE.code());
            p.b.qp.postRecv(recv(p.b, 0, 4096, 50));
            p.a.qp.postSend(wr(p.a, WrOpcode.SEND, 0, 1024));
            p.awaitCompletions(1, 1, 10 * MS);
            assertThat(wire.packets().getFirst().is(Opcode.RC_SEND_ONLY)).isTrue();
            Wire.Packet nak = wire.matching(Wire.fromSide(p.b)).getFirst();
            assertThat(nak.syndrome()).isEqualTo(AethSyndrome.nak(NakCode.INVALID_REQUEST));
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.REM_INV_REQ_ERR);
            assertThat(p.b.qp.query().state()).isEqualTo(QpState.ERR);
            assertThat(p.recvCompletions(p.b).getFirst().status()).isEqualTo(WcStatus.WR_FLUSH_ERR);
        }
    }

    @Test
    void aNewMessageInsideAnotherIsAnInvalidRequest() throws Exception {
        try (SimPair p = new SimPair(4, new SimPair.Config(QpType.RC))) {
            // The LAST of a 3-packet WRITE turned into a SEND_FIRST: a WRITE is still in progress.
            Wire.on(p).rewrite(1, Wire.opcode(Opcode.RC_RDMA_WRITE_LAST),
                    bytes -> bytes[0] = (byte) Opcode.RC_SEND_FIRST.code());
            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 3000, p.b, 0));
            p.awaitOn(p.a, 1, 0, 10 * MS);
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.REM_INV_REQ_ERR);
        }
    }

    @Test
    void aReadOrAtomicTheQpDoesNotAllowIsAnInvalidRequest() throws Exception {
        try (SimPair p = new SimPair(5, new SimPair.Config(QpType.RC))) {
            p.b.qp.modify(new io.jrxe.verbs.QpAttributes().accessFlags(io.jrxe.verbs.Access.REMOTE_WRITE));
            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_READ, 0, 100, p.b, 0));
            p.awaitOn(p.a, 1, 0, 10 * MS);
            // The QP's own access flags (not the MR's) refuse it: rxe's check_op_valid, NAK invalid request.
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.REM_INV_REQ_ERR);
        }
    }
}
