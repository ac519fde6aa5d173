package io.jrxe.verbs.sim;

import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Mw;
import org.junit.jupiter.api.Test;

import static io.jrxe.verbs.sim.Ops.MS;
import static io.jrxe.verbs.sim.Ops.assertSameBytes;
import static io.jrxe.verbs.sim.Ops.fill;
import static io.jrxe.verbs.sim.Ops.id;
import static io.jrxe.verbs.sim.Ops.rdma;
import static io.jrxe.verbs.sim.Ops.recv;
import static io.jrxe.verbs.sim.Ops.wr;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The work requests that change keys: BIND_MW (type 2 windows), SEND_WITH_INV (the receiver's
 * MR or window), LOCAL_INV, and REG_MR (fast registration of an invalidated MR with a new
 * variant). Each is checked by what a remote access through the key does afterwards.
 */
class MemoryKeysTest {
    private static final long WINDOW_AT = 64 * 1024;
    private static final int WINDOW_LENGTH = 8192;

    /** ibv_inc_rkey: the same index, the next variant. */
    static int nextKey(int key) {
        return (key & ~0xFF) | ((key + 1) & 0xFF);
    }

    /** B binds a type 2 window over [WINDOW_AT, +WINDOW_LENGTH) of its MR with a BIND_MW work request. */
    private static int bindWindow(SimPair p, Mw mw, int access) throws Exception {
        int newKey = nextKey(mw.rkey());
        SendWr bind = new SendWr(1);
        bind.opcode = WrOpcode.BIND_MW;
        bind.flags = SendWr.SIGNALED;
        bind.wrId = 600;
        bind.mwRkey = mw.rkey();
        bind.newRkey = newKey;
        bind.mrLkey = p.b.mr.lkey();
        bind.bindAddr = p.b.memory.address() + WINDOW_AT;
        bind.bindLength = WINDOW_LENGTH;
        bind.bindAccess = access;
        int before = p.sendCompletions(p.b).size();
        p.b.qp.postSend(bind);
        p.awaitOn(p.b, before + 1, 0, 10 * MS);
        WorkCompletion c = p.sendCompletions(p.b).get(before);
        assertThat(c.status()).as("%s", c).isEqualTo(WcStatus.SUCCESS);
        assertThat(c.opcode()).isEqualTo(WcOpcode.BIND_MW);
        assertThat(c.wrId()).isEqualTo(600);
        return newKey;
    }

    private static WorkCompletion lastSend(SimPair p, SimPair.Side s, int count) {
        p.awaitOn(s, count, 0, 100 * MS);
        return p.sendCompletions(s).get(count - 1);
    }

    @Test
    void aBoundType2WindowGrantsItsRangeAndNothingMore() throws Exception {
        try (SimPair p = new SimPair(1, QpType.RC, Mtu.MTU_1024, 1 << 20)) {
            Mw mw = p.b.pd.allocMw(2);
            int key = bindWindow(p, mw, Access.REMOTE_WRITE | Access.REMOTE_READ);
            fill(p.a.memory, 0, 3000, 1);

            SendWr inside = rdma(p.a, WrOpcode.RDMA_WRITE, 0, 3000, p.b, WINDOW_AT + 5000);
            inside.rkey = key;
            p.a.qp.postSend(inside);
            assertThat(lastSend(p, p.a, 1).status()).isEqualTo(WcStatus.SUCCESS);
            assertSameBytes(p.b.memory, WINDOW_AT + 5000, p.a.memory, 0, 3000);

            // 3000 bytes at +6000 end 808 bytes past the window: refused as a whole.
            SendWr outside = rdma(p.a, WrOpcode.RDMA_WRITE, 0, 3000, p.b, WINDOW_AT + 6000);
            outside.rkey = key;
            p.a.qp.postSend(outside);
            assertThat(lastSend(p, p.a, 2).status()).isEqualTo(WcStatus.REM_ACCESS_ERR);
            assertThat(p.b.memory.asSlice(WINDOW_AT + WINDOW_LENGTH, 808).mismatch(
                    java.lang.foreign.MemorySegment.ofArray(new byte[808]))).as("nothing written past the window").isEqualTo(-1);
        }
    }

    @Test
    void bindingToAnMrWithoutMwBindFailsWithMwBindErr() throws Exception {
        try (SimPair p = new SimPair(9, QpType.RC, Mtu.MTU_1024, 1 << 20)) {
            Mr noBind = p.b.pd.regMr(p.b.memory.asSlice(512 * 1024, 4096), Access.LOCAL_WRITE | Access.REMOTE_READ);
            Mw mw = p.b.pd.allocMw(2);
            SendWr bind = new SendWr(1);
            bind.opcode = WrOpcode.BIND_MW;
            bind.mwRkey = mw.rkey();
            bind.newRkey = nextKey(mw.rkey());
            bind.mrLkey = noBind.lkey();
            bind.bindAddr = noBind.memory().address();
            bind.bindLength = 100;
            bind.bindAccess = Access.REMOTE_READ;
            p.b.qp.postSend(id(bind, 5)); // unsignaled: the error completes anyway
            WorkCompletion c = lastSend(p, p.b, 1);
            assertThat(c.wrId()).isEqualTo(5);
            assertThat(c.status()).isEqualTo(WcStatus.MW_BIND_ERR);
            assertThat(p.b.qp.query().state()).isEqualTo(QpState.ERR);
        }
    }

    @Test
    void aWindowDoesNotGrantWhatItWasNotBoundWith() throws Exception {
        try (SimPair p = new SimPair(2, QpType.RC, Mtu.MTU_1024, 1 << 20)) {
            Mw mw = p.b.pd.allocMw(2);
            int key = bindWindow(p, mw, Access.REMOTE_READ);
            SendWr write = rdma(p.a, WrOpcode.RDMA_WRITE, 0, 100, p.b, WINDOW_AT);
            write.rkey = key;
            p.a.qp.postSend(write);
            assertThat(lastSend(p, p.a, 1).status()).isEqualTo(WcStatus.REM_ACCESS_ERR);
        }
    }

    @Test
    void sendWithInvalidateInvalidatesTheReceiversWindow() throws Exception {
        try (SimPair p = new SimPair(3, QpType.RC, Mtu.MTU_1024, 1 << 20)) {
            Mw mw = p.b.pd.allocMw(2);
            int key = bindWindow(p, mw, Access.REMOTE_WRITE | Access.REMOTE_READ);
            p.b.qp.postRecv(recv(p.b, 0, 100, 70));
            SendWr inv = wr(p.a, WrOpcode.SEND_WITH_INV, 0, 10);
            inv.invalidateRkey = key;
            p.a.qp.postSend(inv);
            assertThat(lastSend(p, p.a, 1).status()).isEqualTo(WcStatus.SUCCESS);
            p.awaitOn(p.b, 1, 1, 10 * MS);
            WorkCompletion r = p.recvCompletions(p.b).getFirst();
            assertThat(r.hasInvalidate()).isTrue();
            assertThat(r.invalidatedRkey()).isEqualTo(key);

            SendWr read = rdma(p.a, WrOpcode.RDMA_READ, 0, 100, p.b, WINDOW_AT);
            read.rkey = key;
            p.a.qp.postSend(read);
            assertThat(lastSend(p, p.a, 2).status()).as("the window was invalidated").isEqualTo(WcStatus.REM_ACCESS_ERR);
        }
    }

    @Test
    void sendWithInvalidateInvalidatesTheReceiversMr() throws Exception {
        try (SimPair p = new SimPair(4, QpType.RC, Mtu.MTU_1024, 1 << 20)) {
            Mr victim = p.b.pd.regMr(p.b.memory.asSlice(512 * 1024, 4096), Access.LOCAL_WRITE | Access.REMOTE_READ);
            SendWr before = rdma(p.a, WrOpcode.RDMA_READ, 0, 100, p.b, 512 * 1024);
            before.rkey = victim.rkey();
            p.a.qp.postSend(before);
            assertThat(lastSend(p, p.a, 1).status()).isEqualTo(WcStatus.SUCCESS);

            p.b.qp.postRecv(recv(p.b, 0, 100, 71));
            SendWr inv = wr(p.a, WrOpcode.SEND_WITH_INV, 0, 0);
            inv.invalidateRkey = victim.rkey();
            p.a.qp.postSend(inv);
            assertThat(lastSend(p, p.a, 2).status()).isEqualTo(WcStatus.SUCCESS);
            p.awaitOn(p.b, 0, 1, 10 * MS);
            assertThat(p.recvCompletions(p.b).getFirst().invalidatedRkey()).isEqualTo(victim.rkey());

            SendWr after = rdma(p.a, WrOpcode.RDMA_READ, 0, 100, p.b, 512 * 1024);
            after.rkey = victim.rkey();
            p.a.qp.postSend(after);
            assertThat(lastSend(p, p.a, 3).status()).isEqualTo(WcStatus.REM_ACCESS_ERR);
        }
    }

    /**
     * A SEND with invalidate naming a key the receiver cannot invalidate: as rxe (IBTA class J),
     * the SEND is acknowledged, the receive completes with REM_INV_REQ_ERR and the receiver's QP
     * goes to the error state.
     */
    @Test
    void sendWithInvalidateOfABadKeyFailsTheReceiveNotTheSend() throws Exception {
        try (SimPair p = new SimPair(8, QpType.RC, Mtu.MTU_1024, 1 << 20)) {
            p.b.qp.postRecv(recv(p.b, 0, 100, 72));
            SendWr inv = wr(p.a, WrOpcode.SEND_WITH_INV, 0, 10);
            inv.invalidateRkey = p.b.mr.rkey() + 0x300; // no such MR or window
            p.a.qp.postSend(inv);
            p.awaitCompletions(1, 1, 10 * MS);
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(p.recvCompletions(p.b).getFirst().status()).isEqualTo(WcStatus.REM_INV_REQ_ERR);
            assertThat(p.recvCompletions(p.b).getFirst().wrId()).isEqualTo(72);
            assertThat(p.b.qp.query().state()).isEqualTo(QpState.ERR);
            assertThat(p.a.qp.query().state()).isEqualTo(QpState.RTS);
        }
    }

    @Test
    void localInvalidateMakesTheKeyUnusableLocally() throws Exception {
        try (SimPair p = new SimPair(5, QpType.RC, Mtu.MTU_1024, 1 << 20)) {
            Mr local = p.a.pd.regMr(p.a.memory.asSlice(512 * 1024, 4096), Access.LOCAL_WRITE);
            SendWr inv = new SendWr(1);
            inv.opcode = WrOpcode.LOCAL_INV;
            inv.flags = SendWr.SIGNALED;
            inv.invalidateRkey = local.lkey();
            p.a.qp.postSend(inv);
            WorkCompletion c = lastSend(p, p.a, 1);
            assertThat(c.status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(c.opcode()).isEqualTo(WcOpcode.LOCAL_INV);

            SendWr write = rdma(p.a, WrOpcode.RDMA_WRITE, 0, 100, p.b, 0);
            write.sgl.clear();
            write.sgl.add(local.memory().address(), 100, local.lkey());
            p.a.qp.postSend(write);
            assertThat(lastSend(p, p.a, 2).status()).as("gathering through an invalidated L_Key")
                    .isEqualTo(WcStatus.LOC_PROT_ERR);
            assertThat(p.a.qp.query().state()).isEqualTo(QpState.ERR);
        }
    }

    @Test
    void fastRegistrationGivesAnInvalidatedMrANewKeyAndRange() throws Exception {
        try (SimPair p = new SimPair(6, QpType.RC, Mtu.MTU_1024, 1 << 20)) {
            Mr mr = p.b.pd.regMr(p.b.memory.asSlice(512 * 1024, 16384), Access.LOCAL_WRITE | Access.REMOTE_READ);
            int oldKey = mr.rkey();
            SendWr inv = new SendWr(1);
            inv.opcode = WrOpcode.LOCAL_INV;
            inv.flags = SendWr.SIGNALED;
            inv.invalidateRkey = oldKey;
            int newKey = nextKey(oldKey);
            long newIova = 0x7000_0000L;
            SendWr reg = new SendWr(1);
            reg.opcode = WrOpcode.REG_MR;
            reg.flags = SendWr.SIGNALED;
            reg.mrLkey = oldKey;
            reg.newRkey = newKey;
            reg.bindAddr = newIova;
            reg.bindLength = 8192;
            reg.bindAccess = Access.LOCAL_WRITE | Access.REMOTE_WRITE;
            p.b.qp.postSend(inv.next(reg));
            p.awaitOn(p.b, 2, 0, 10 * MS);
            assertThat(p.sendCompletions(p.b)).extracting(WorkCompletion::status).containsOnly(WcStatus.SUCCESS);
            assertThat(p.sendCompletions(p.b)).extracting(WorkCompletion::opcode)
                    .containsExactly(WcOpcode.LOCAL_INV, WcOpcode.REG_MR);

            // The new key writes at the new iova (which starts at the MR's first byte).
            fill(p.a.memory, 0, 500, 6);
            SendWr write = rdma(p.a, WrOpcode.RDMA_WRITE, 0, 500, p.b, 0);
            write.remoteAddr = newIova + 1000;
            write.rkey = newKey;
            p.a.qp.postSend(write);
            assertThat(lastSend(p, p.a, 1).status()).isEqualTo(WcStatus.SUCCESS);
            assertSameBytes(p.b.memory, 512 * 1024 + 1000, p.a.memory, 0, 500);

            // The old key is stale now.
            SendWr old = rdma(p.a, WrOpcode.RDMA_READ, 0, 10, p.b, 512 * 1024);
            old.rkey = oldKey;
            p.a.qp.postSend(old);
            assertThat(lastSend(p, p.a, 2).status()).isEqualTo(WcStatus.REM_ACCESS_ERR);
        }
    }

    @Test
    void fastRegistrationOfAValidMrFails() throws Exception {
        try (SimPair p = new SimPair(7, QpType.RC, Mtu.MTU_1024, 1 << 20)) {
            Mr mr = p.b.pd.regMr(p.b.memory.asSlice(512 * 1024, 4096), Access.LOCAL_WRITE);
            SendWr reg = new SendWr(1);
            reg.opcode = WrOpcode.REG_MR;
            reg.mrLkey = mr.lkey();
            reg.newRkey = nextKey(mr.lkey());
            reg.bindAddr = 0;
            reg.bindLength = 4096;
            reg.bindAccess = Access.LOCAL_WRITE;
            p.b.qp.postSend(id(reg, 9)); // unsignaled: an error completes anyway
            WorkCompletion c = lastSend(p, p.b, 1);
            assertThat(c.wrId()).isEqualTo(9);
            // rxe: rxe_reg_fast_mr refuses an MR that is not free (invalidated) -> LOC_QP_OP_ERR.
            assertThat(c.status()).isEqualTo(WcStatus.LOC_QP_OP_ERR);
        }
    }
}
