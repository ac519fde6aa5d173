package io.jrxe.tools.mistakes;

import io.jrxe.tools.common.SimulatedCaptureFile;
import io.jrxe.tools.common.SimulatedPair;
import io.jrxe.verbs.AsyncEventType;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;

import java.util.List;

/** The mistakes about keys and queues: a wrong rkey, a wrong num_sge, a CQ nobody polls, no receive posted. */
final class QueueMistakes {
    private QueueMistakes() {
    }

    static Section wrongRkey(SimulatedCaptureFile capture) throws VerbsException {
        Section s = new Section("wrong-rkey", "Wrong rkey: an RDMA_WRITE with a key jrxe1 never gave out");
        try (Scene scene = new Scene(capture)) {
            SendWr wr = scene.remote(WrOpcode.RDMA_WRITE, 0, 64, 0);
            wr.rkey = scene.b.mr.rkey() + 1;
            s.did(String.format("jrxe1's MR has rkey 0x%08x; jrxe0 posted RDMA_WRITE wr_id=%d of 64 bytes to 0x%x with rkey 0x%08x "
                    + "(the same MPT index, another variant)", scene.b.mr.rkey(), wr.wrId, wr.remoteAddr, wr.rkey));
            scene.a.qp.postSend(wr);
            WorkCompletion wc = scene.pair.pollOne(scene.a);
            scene.packets(s, "");
            s.result("completion on jrxe0: " + scene.completion(wc));
            s.result("QP states: jrxe0 " + Scene.state(scene.a) + ", jrxe1 " + Scene.state(scene.b));
            Scene.asyncEvents(scene.b).forEach(s::result);
            s.rule = "the responder checks the RETH's R_Key against its MPT (key found, variant current, same PD, REMOTE_WRITE "
                    + "granted, range inside) and answers NAK remote access error; the requester completes REM_ACCESS_ERR and "
                    + "both QPs go to ERR (IBTA 9.7.5.1.x, rxe's check_rkey)";
            s.fix = "send the peer the rkey ibv_reg_mr returned (mr->rkey, with REMOTE_WRITE access), not the lkey or an old "
                    + "key of a re-registered MR; then reset the QPs (RESET -> INIT -> RTR -> RTS) to go on";
            s.expect(wc != null && wc.status() == WcStatus.REM_ACCESS_ERR && wc.vendorErr() == 2,
                    "REM_ACCESS_ERR with vendor_err 2 (NAK remote access error)");
            s.expect(Scene.state(scene.a) == QpState.ERR && Scene.state(scene.b) == QpState.ERR, "both QPs in ERR");
            s.expect(s.packets.size() == 2 && s.packets.get(1).contains("NAK remote access error"),
                    "one WRITE and one NAK (remote access error)");
        }
        return s;
    }

    static Section numSge(SimulatedCaptureFile capture) throws VerbsException {
        Section s = new Section("num-sge", "Wrong num_sge: three scatter/gather entries on a QP made for two");
        try (Scene scene = new Scene(capture)) {
            SendWr wr = scene.remote(WrOpcode.RDMA_WRITE, 0, 16, 0);
            wr.sgl.add(scene.a.at(64), 16, scene.a.mr.lkey());
            wr.sgl.add(scene.a.at(128), 16, scene.a.mr.lkey());
            s.did("jrxe0's QP was created with max_send_sge 2; jrxe0 posted RDMA_WRITE wr_id=" + wr.wrId
                    + " with num_sge 3 (three 16-byte pieces of its MR)");
            VerbsException refused = scene.postRefused(s, scene.a.qp, wr);
            s.result("completion on jrxe0: " + scene.completion(scene.pair.pollNow(scene.a)) + "; QP state "
                    + Scene.state(scene.a) + " (a refused post changes nothing)");
            s.rule = "post_send checks each WR against the QP's capabilities before it takes a slot: num_sge above "
                    + "max_send_sge is EINVAL and the WR is bad_wr (rxe: validate_send_wr)";
            s.fix = "create the QP with max_send_sge (cap.max_send_sge) as large as the most pieces a WR gathers, "
                    + "or copy the pieces into one registered buffer";
            s.expect(refused != null && refused.errno() == Errno.EINVAL, "post_send refused with EINVAL");
            s.expect(s.packets.getFirst().startsWith("none"), "no packet");
            s.expect(Scene.state(scene.a) == QpState.RTS, "the QP still in RTS");
        }
        return s;
    }

    static Section cqNotPolled(SimulatedCaptureFile capture) throws VerbsException {
        int cqEntries = 4;
        int posted = 8;
        Section s = new Section("cq-overflow", "CQ not polled: " + posted + " signaled WRITEs into a CQ of " + cqEntries
                + " that nobody polls");
        try (Scene scene = new Scene(SimulatedPair.Settings.defaults().cqEntries(cqEntries), capture)) {
            s.did(String.format("jrxe0's CQ was created with %d entries (it holds %d); jrxe0 posted %d signaled RDMA_WRITEs of "
                    + "64 bytes and did not poll until all were done", cqEntries, scene.a.cq.capacity(), posted));
            for (int i = 0; i < posted; i++) {
                scene.a.qp.postSend(scene.remote(WrOpcode.RDMA_WRITE, 64L * i, 64, 64L * i));
            }
            scene.pair.settle();
            int writes = scene.packetCount();
            scene.packets(s, "");
            s.packets.clear();
            s.packets.add(writes + " packets: the WRITEs and their ACKs all crossed; the loss is local");
            List<String> events = Scene.asyncEvents(scene.a);
            events.forEach(s::result);
            int polled = 0;
            StringBuilder statuses = new StringBuilder();
            for (WorkCompletion wc = scene.pair.pollNow(scene.a); wc != null && polled < 4 * posted;
                    wc = scene.pair.pollNow(scene.a)) {
                polled++;
                statuses.append(polled == 1 ? "" : ", ").append(wc.wrId()).append(' ').append(wc.status());
            }
            s.result(String.format("then ibv_poll_cq finds %d completion(s) for %d signaled WRs: %s", polled, posted, statuses));
            s.result("QP state: jrxe0 " + Scene.state(scene.a));
            s.rule = "a CQ overrun is an affiliated asynchronous error: the CQ error event (IBV_EVENT_CQ_ERR) and the "
                    + "completions that did not fit are lost; jrxe also moves the CQ's QPs to ERR, as hardware RNICs do "
                    + "(kernel rxe raises the event and drops the completion, its QP goes on)";
            s.fix = "poll the CQ as you post (a completion per signaled WR), make the CQ at least as deep as the WRs that "
                    + "can be outstanding on every QP that uses it, or signal only every Nth WR";
            s.expect(events.stream().anyMatch(e -> e.contains(AsyncEventType.CQ_ERR.name())), "a CQ_ERR async event");
            s.expect(polled < posted, "fewer completions than signaled WRs");
            s.expect(Scene.state(scene.a) == QpState.ERR, "jrxe0's QP in ERR");
        }
        return s;
    }

    static Section noReceive(SimulatedCaptureFile capture) throws VerbsException {
        int rnrRetry = 2;
        Section s = new Section("rnr", "No receive posted: a SEND to a QP with an empty receive queue (RNR)");
        try (Scene scene = new Scene(SimulatedPair.Settings.defaults().rnr(rnrRetry, 1), capture)) {
            SendWr wr = scene.wr(WrOpcode.SEND, 0, 64);
            s.did("jrxe1 posted no receive; jrxe0 (rnr_retry " + rnrRetry + ") posted SEND wr_id=" + wr.wrId
                    + " of 64 bytes; jrxe1's QP asks for an RNR wait of 0.01 ms (min_rnr_timer 1)");
            scene.a.qp.postSend(wr);
            WorkCompletion wc = scene.pair.pollOne(scene.a);
            scene.packets(s, "");
            s.result("completion on jrxe0: " + scene.completion(wc));
            s.result(String.format("counters: jrxe0 rcvd_rnr_err=%d, jrxe1 send_rnr_err=%d; QP states: jrxe0 %s, jrxe1 %s",
                    Scene.counter(scene.a, "rcvd_rnr_err"), Scene.counter(scene.b, "send_rnr_err"), Scene.state(scene.a),
                    Scene.state(scene.b)));
            s.rule = "a SEND that finds no receive WQE is answered with an RNR NAK carrying the responder's RNR timer; the "
                    + "requester waits that long and sends again, rnr_retry times (7: for ever), then completes "
                    + "RNR_RETRY_EXC_ERR and its QP goes to ERR (IBTA 9.7.5, the RNR NAK; rxe: get_rwqe finds none, RESPST_ERR_RNR)";
            s.fix = "post receives before the peer can send (before moving the QP to RTR, or before telling the peer), "
                    + "keep the receive queue filled, or use an SRQ; rnr_retry 7 hides the mistake by waiting for ever";
            long rnrNaks = s.packets.stream().filter(p -> p.contains("RNR NAK")).count();
            s.expect(wc != null && wc.status() == WcStatus.RNR_RETRY_EXC_ERR, "RNR_RETRY_EXC_ERR");
            s.expect(rnrNaks == rnrRetry + 1, (rnrRetry + 1) + " RNR NAKs (the first try and " + rnrRetry + " retries)");
        }
        return s;
    }
}
