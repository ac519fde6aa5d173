package io.jrxe.tools.mistakes;

import io.jrxe.tools.common.SimulatedCaptureFile;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;

/**
 * The mistakes about what a key or a QP allows: an MR registered without the remote access the peer uses, a key of
 * another protection domain, a send posted before the QP is ready to send.
 */
final class ProtectionMistakes {
    private ProtectionMistakes() {
    }

    static Section missingAccess(SimulatedCaptureFile capture) throws VerbsException {
        Section s = new Section("missing-access", "Missing access flag: a WRITE into an MR registered for remote READ only");
        try (Scene scene = new Scene(capture)) {
            Mr readOnly = scene.b.pd.regMr(scene.b.memory.asSlice(4096, 4096), Access.LOCAL_WRITE | Access.REMOTE_READ);
            SendWr wr = scene.remote(WrOpcode.RDMA_WRITE, 0, 64, 4096);
            wr.rkey = readOnly.rkey();
            s.did(String.format("jrxe1 registered 4 KiB at 0x%x with LOCAL_WRITE | REMOTE_READ, no REMOTE_WRITE (rkey 0x%08x); "
                    + "jrxe0 posted RDMA_WRITE wr_id=%d of 64 bytes to it with that rkey", readOnly.iova(), readOnly.rkey(),
                    wr.wrId));
            scene.a.qp.postSend(wr);
            WorkCompletion wc = scene.pair.pollOne(scene.a);
            scene.packets(s, "");
            s.result("completion on jrxe0: " + scene.completion(wc));
            s.result("QP states: jrxe0 " + Scene.state(scene.a) + ", jrxe1 " + Scene.state(scene.b));
            Scene.asyncEvents(scene.b).forEach(s::result);
            s.rule = "the responder finds the rkey's MPT entry, then checks that it grants the access the request needs "
                    + "(REMOTE_WRITE for a WRITE, REMOTE_READ for a READ, REMOTE_ATOMIC for an atomic); the key is right, "
                    + "the right is missing: NAK remote access error, REM_ACCESS_ERR, both QPs to ERR (IBTA 10.6.3.3; "
                    + "rxe's check_rkey)";
            s.fix = "register the memory with every access the peer will use (ibv_reg_mr(pd, addr, len, "
                    + "IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE)); the QP's own access flags (INIT) must allow it too";
            s.expect(wc != null && wc.status() == WcStatus.REM_ACCESS_ERR, "REM_ACCESS_ERR");
            s.expect(s.packets.size() == 2 && s.packets.get(1).contains("NAK remote access error"),
                    "one WRITE and one NAK (remote access error)");
            s.expect(Scene.state(scene.a) == QpState.ERR, "jrxe0's QP in ERR");
        }
        return s;
    }

    static Section pdMismatch(SimulatedCaptureFile capture) throws VerbsException {
        Section s = new Section("pd-mismatch", "PD mismatch: an lkey of another protection domain");
        try (Scene scene = new Scene(capture)) {
            Pd other = scene.a.ctx.allocPd();
            Mr elsewhere = other.regMr(scene.a.memory.asSlice(4096, 4096), Access.LOCAL_WRITE);
            SendWr wr = scene.remote(WrOpcode.RDMA_WRITE, 4096, 64, 0);
            wr.sgl.clear();
            wr.sgl.add(elsewhere.iova(), 64, elsewhere.lkey());
            s.did(String.format("jrxe0 allocated a second PD and registered 4 KiB at 0x%x in it (lkey 0x%08x); its QP "
                    + "belongs to the first PD; it posted RDMA_WRITE wr_id=%d of 64 bytes from that MR", elsewhere.iova(),
                    elsewhere.lkey(), wr.wrId));
            scene.a.qp.postSend(wr);
            WorkCompletion wc = scene.pair.pollOne(scene.a);
            scene.packets(s, "the requester checks the lkey's PD against the QP's before it builds a packet");
            s.result("completion on jrxe0: " + scene.completion(wc));
            s.result("QP state: jrxe0 " + Scene.state(scene.a));
            s.rule = "a QP may use only the MRs of its own protection domain: the lkey's MPT entry names another PD, "
                    + "so the WQE completes LOC_PROT_ERR and the QP goes to ERR (IBTA 10.2.3, protection domains; rxe's "
                    + "lookup_mr compares the MR's PD with the QP's)";
            s.fix = "register the buffer in the PD the QP was created in (ibv_reg_mr(qp->pd, ...)); a PD is the unit "
                    + "of trust that keeps one connection from using another's memory";
            s.expect(wc != null && wc.status() == WcStatus.LOC_PROT_ERR, "LOC_PROT_ERR");
            s.expect(s.packets.getFirst().startsWith("none"), "no packet");
            s.expect(Scene.state(scene.a) == QpState.ERR, "the QP in ERR");
        }
        return s;
    }

    static Section beforeRts(SimulatedCaptureFile capture) throws VerbsException {
        Section s = new Section("before-rts", "Post before RTS: a SEND on a QP that was only taken to INIT");
        try (Scene scene = new Scene(capture)) {
            Qp fresh = scene.a.pd.createQp(new QpInitAttributes(QpType.RC, scene.a.cq, scene.a.cq, null,
                    new QpCapabilities(4, 4, 1, 1, 0), false));
            fresh.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(0));
            SendWr wr = scene.wr(WrOpcode.SEND, 0, 64);
            s.did(String.format("jrxe0 created QP 0x%06x and took it RESET -> INIT only (no RTR: no peer, no PSNs; no RTS: "
                    + "no timeout or retry count); it posted SEND wr_id=%d of 64 bytes on it", fresh.qpNum(), wr.wrId));
            VerbsException refused = scene.postRefused(s, fresh, wr);
            s.result("QP state: " + fresh.query().state() + " (a refused post changes nothing)");
            s.rule = "only a QP in RTS (or SQD) takes sends: before RTS it has no destination, no send PSN, no timeout and "
                    + "no retry count to send with; receives may be posted from INIT on (IBTA 10.3.1, QP states; rxe's "
                    + "post_send returns EINVAL below RTS)";
            s.fix = "take the QP through RTR (the peer's QPN, GID and PSN) and RTS (sq_psn, timeout, retry_cnt, "
                    + "rnr_retry) before the first ibv_post_send; `jrxe states` shows each step and what it needs";
            s.expect(refused != null && refused.errno() == Errno.EINVAL, "post_send refused with EINVAL");
            s.expect(s.packets.getFirst().startsWith("none"), "no packet");
            fresh.close();
        }
        return s;
    }
}
