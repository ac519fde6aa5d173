package io.jrxe.tools.trace;

import io.jrxe.rnic.memory.Translation;
import io.jrxe.tools.common.SimulatedCaptureFile;
import io.jrxe.tools.common.SimulatedPair;
import io.jrxe.tools.common.SimulatedPair.Nic;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.wire.sim.PacketFilter;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * One work request from jrxe0 to jrxe1 on a simulated network, with both NICs' engines and ports reporting to one
 * list of events: the trip `jrxe trace` prints. The application's own steps (the WR it prepared, the receive it
 * posted, each poll that found a completion) are added where they happen.
 */
final class Trip {
    static final int MAX_SIZE = 1 << 20;
    /** FETCH_AND_ADD adds this to jrxe1's word, which starts at ATOMIC_START. */
    private static final long ATOMIC_ADD = 1;
    private static final long ATOMIC_START = 41;

    /**
     * What a trip found: its events, whether the operation did what it should (its status, the bytes), and how many
     * packets the network carried (a lost one included).
     */
    record Result(TripOp op, int size, int mtu, List<TripEvent> events, boolean ok, String outcome, int carried) {
    }

    /** Whether the operation did what it should, and the sentence that says so. */
    private record Outcome(boolean ok, String outcome) {
    }

    private Trip() {
    }

    /**
     * Runs the trip.
     *
     * @param lose    the packet the network loses, counting from 1 every packet it carries either way (0: none)
     * @param capture where the trip's packets are captured too, or null
     * @param onDemand both NICs' buffers are registered ON_DEMAND, so the trip shows their pages faulted in
     */
    static Result run(TripOp op, int size, int lose, SimulatedCaptureFile capture, boolean onDemand) throws VerbsException {
        long buffer = Math.max(4096, (size + 4095L) / 4096 * 4096);
        try (SimulatedPair pair = SimulatedPair.open(SimulatedPair.Settings.defaults().bufferBytes(buffer).onDemand(onDemand))) {
            if (capture != null) {
                capture.record(pair);
            }
            Nic a = pair.a;
            Nic b = pair.b;
            int length = op == TripOp.ATOMIC ? Long.BYTES : size;
            for (int i = 0; i < length; i++) {
                a.memory.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 7 + 1));
                b.memory.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 5 + 3));
            }
            if (op == TripOp.ATOMIC) {
                b.memory.set(ValueLayout.JAVA_LONG, 0, ATOMIC_START);
            }
            byte[] expected = (op == TripOp.READ ? b : a).memory.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE);

            List<TripEvent> events = new ArrayList<>();
            int sqDepth = SimulatedPair.Settings.defaults().caps().maxSendWr();
            TripRecorder onA = new TripRecorder(a.name, true, op == TripOp.SEND, pair.time, sqDepth, events);
            TripRecorder onB = new TripRecorder(b.name, false, op == TripOp.SEND, pair.time, sqDepth, events);
            install(pair, a, onA);
            install(pair, b, onB);
            int[] carried = {0};
            pair.network.filter((from, to, roce) -> {
                if (++carried[0] != lose) {
                    return PacketFilter.Verdict.PASS;
                }
                events.add(new TripEvent(pair.time.nanoTime(), "net", Stage.LOST, String.format("the network loses packet %d "
                        + "of the trip, the one just sent from %s to %s: it never arrives", lose, from.address().getHostAddress(),
                        to.address().getHostAddress()), TripRecorder.fields("packet", lose), null));
                return PacketFilter.Verdict.DROP;
            });

            if (op == TripOp.SEND) {
                RecvWr r = new RecvWr(1);
                r.wrId = 100;
                r.sgl.add(b.at(0), length, b.mr.lkey());
                onB.add(Stage.RECEIVE_POSTED, String.format("the receiver posts wr_id=100 first: sge addr=0x%x length=%d lkey=0x%08x",
                        b.at(0), length, b.mr.lkey()), TripRecorder.fields("wr_id", 100L, "addr", b.at(0), "length", length,
                        "lkey", Integer.toUnsignedLong(b.mr.lkey())));
                b.qp.postRecv(r);
            }
            SendWr wr = workRequest(op, a, b, length);
            onA.add(Stage.WORK_REQUEST, describe(wr, a, b), wrFields(wr));
            a.qp.postSend(wr);

            WorkCompletion[] sent = new WorkCompletion[1];
            WorkCompletion[] received = new WorkCompletion[1];
            boolean waitForB = op == TripOp.SEND;
            pair.runUntil(() -> {
                poll(pair, a, onA, sent);
                if (waitForB) {
                    poll(pair, b, onB, received);
                }
                return sent[0] != null && (!waitForB || received[0] != null);
            });
            uninstall(pair, a);
            uninstall(pair, b);
            if (capture != null) {
                capture.ended(pair);
            }
            int mtu = a.ctx.queryPort(1).activeMtu().bytes();
            Outcome v = check(op, a, b, expected, sent[0], waitForB ? received[0] : null);
            return new Result(op, size, mtu, events, v.ok(), v.outcome(), carried[0]);
        }
    }

    private static void install(SimulatedPair pair, Nic nic, TripRecorder recorder) {
        nic.device.nic().trace(recorder);
        pair.tap(nic, recorder.tap());
    }

    private static void uninstall(SimulatedPair pair, Nic nic) {
        nic.device.nic().trace(null);
        pair.tap(nic, null);
    }

    private static void poll(SimulatedPair pair, Nic nic, TripRecorder recorder, WorkCompletion[] into) {
        if (into[0] != null) {
            return;
        }
        WorkCompletion wc = pair.pollNow(nic);
        if (wc != null) {
            into[0] = wc;
            recorder.add(Stage.POLL, "ibv_poll_cq finds 1 completion: " + nic.jrxe.describe(wc), TripRecorder.fields("wr_id", wc.wrId(),
                    "status", wc.status().name(), "opcode", wc.opcode().name(), "byte_len", wc.byteLen(), "vendor_err",
                    wc.vendorErr(), "qpn", wc.qpNum()));
        }
    }

    private static SendWr workRequest(TripOp op, Nic a, Nic b, int length) {
        SendWr wr = new SendWr(1);
        wr.wrId = 1;
        wr.opcode = op.opcode;
        wr.flags = SendWr.SIGNALED;
        wr.sgl.add(a.at(0), length, a.mr.lkey());
        if (op != TripOp.SEND) {
            wr.remoteAddr = b.at(0);
            wr.rkey = b.mr.rkey();
        }
        if (op == TripOp.ATOMIC) {
            wr.compareAdd = ATOMIC_ADD;
        }
        return wr;
    }

    private static String describe(SendWr wr, Nic a, Nic b) {
        StringBuilder s = new StringBuilder(String.format("%s wr_id=%d signaled: sge addr=0x%x length=%d lkey=0x%08x "
                + "(jrxe0's MR: %s)", wr.opcode, wr.wrId, wr.sgl.addr(0), wr.sgl.length(0), wr.sgl.lkey(0), mrText(a)));
        if (wr.rkey != 0) {
            s.append(String.format("; remote addr=0x%x rkey=0x%08x (jrxe1's MR: %s)", wr.remoteAddr, wr.rkey, mrText(b)));
        }
        if (wr.opcode == TripOp.ATOMIC.opcode) {
            s.append("; add ").append(wr.compareAdd);
        }
        return s.toString();
    }

    /** The MR's first translation, as the NIC holds it: the key's MPT entry and its first MTT entry. */
    private static String mrText(Nic nic) {
        try {
            Translation t = nic.jrxe.translate(nic.mr, nic.mr.iova());
            return String.format("iova 0x%x length %d, %d page(s) from MTT[%d]", t.entryIova(), t.entryLength(),
                    (t.entryLength() + t.pageOffset() + 4095) / 4096, t.mttIndex());
        } catch (VerbsException e) {
            return "not translatable: " + e.getMessage();
        }
    }

    private static java.util.Map<String, Object> wrFields(SendWr wr) {
        return TripRecorder.fields("wr_id", wr.wrId, "opcode", wr.opcode.name(), "addr", wr.sgl.addr(0),
                "length", wr.sgl.length(0), "lkey", Integer.toUnsignedLong(wr.sgl.lkey(0)), "remote_addr", wr.remoteAddr,
                "rkey", Integer.toUnsignedLong(wr.rkey));
    }

    private static Outcome check(TripOp op, Nic a, Nic b, byte[] expected, WorkCompletion sent, WorkCompletion received) {
        if (sent == null) {
            return new Outcome(false, "no completion came on jrxe0");
        }
        if (sent.status() != WcStatus.SUCCESS || received != null && received.status() != WcStatus.SUCCESS) {
            return new Outcome(false, "the work request failed: " + sent
                    + (received == null ? "" : "; on jrxe1: " + received));
        }
        int length = expected.length;
        return switch (op) {
            case WRITE, SEND -> same(b, expected)
                    ? new Outcome(true, String.format("jrxe1's memory at 0x%x holds the %d bytes jrxe0 sent",
                    b.at(0), length))
                    : new Outcome(false, "jrxe1's memory does not hold the bytes jrxe0 sent");
            case READ -> same(a, expected)
                    ? new Outcome(true, String.format("jrxe0's memory at 0x%x holds the %d bytes read from jrxe1",
                    a.at(0), length))
                    : new Outcome(false, "jrxe0's memory does not hold jrxe1's bytes");
            case ATOMIC -> {
                long now = b.memory.get(ValueLayout.JAVA_LONG, 0);
                long old = a.memory.get(ValueLayout.JAVA_LONG, 0);
                boolean ok = now == ATOMIC_START + ATOMIC_ADD && old == ATOMIC_START;
                yield new Outcome(ok, String.format("jrxe1's word is %d, jrxe0 got the old value %d%s",
                        now, old, ok ? "" : String.format(" (expected %d and %d)", ATOMIC_START + ATOMIC_ADD, ATOMIC_START)));
            }
        };
    }

    private static boolean same(Nic nic, byte[] expected) {
        return java.util.Arrays.equals(nic.memory.asSlice(0, expected.length).toArray(ValueLayout.JAVA_BYTE), expected);
    }
}
