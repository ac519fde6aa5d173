package io.jrxe.tools.mistakes;

import io.jrxe.tools.common.SimulatedCaptureFile;
import io.jrxe.tools.common.SimulatedPair;
import io.jrxe.tools.common.SimulatedPair.Nic;
import io.jrxe.tools.common.TapDissector;
import io.jrxe.verbs.AsyncEvent;
import io.jrxe.verbs.AsyncEventType;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.dissect.PacketSummary;
import io.jrxe.wire.port.PacketTap;

import java.util.ArrayList;
import java.util.List;

/**
 * The stage a mistake is acted out on: a fresh pair of simulated jrxe NICs, a log of every packet either sends
 * (headers, one line each), and the words for what came back: completions with their vendor_err's meaning, the QPs'
 * states, the async events.
 */
final class Scene implements AutoCloseable {
    final SimulatedPair pair;
    final Nic a;
    final Nic b;
    private final List<String> packets = new ArrayList<>();
    private final SimulatedCaptureFile capture;
    private long wrIds;

    /** A scene whose packets also go to {@code capture} (null: none). */
    Scene(SimulatedPair.Settings settings, SimulatedCaptureFile capture) throws VerbsException {
        pair = SimulatedPair.open(settings);
        a = pair.a;
        b = pair.b;
        this.capture = capture;
        if (capture != null) {
            capture.record(pair);
        }
        log(a, "jrxe0 -> jrxe1");
        log(b, "jrxe1 -> jrxe0");
    }

    Scene(SimulatedCaptureFile capture) throws VerbsException {
        this(SimulatedPair.Settings.defaults(), capture);
    }

    private void log(Nic nic, String arrow) {
        TapDissector dissector = new TapDissector();
        pair.tap(nic, (direction, source, destination, sourcePort, destinationPort, id, roce, offset,
                length, stamp, comment) -> {
            if (direction == PacketTap.Direction.SENT) {
                String s = PacketSummary.of(dissector.dissect(source, destination, sourcePort, destinationPort, id, roce,
                        offset, length, stamp)).strip();
                int cut = s.indexOf("  ", s.indexOf(" -> "));
                packets.add(String.format("%.3f us  %s  %s", stamp / 1000.0, arrow,
                        (cut > 0 ? s.substring(cut).strip() : s).replace("  icrc=ok", "")));
            }
        });
    }

    /** A signaled work request from jrxe0's buffer at {@code offset}, with jrxe0's lkey. */
    SendWr wr(WrOpcode opcode, long offset, int length) {
        SendWr wr = new SendWr(4);
        wr.wrId = ++wrIds;
        wr.opcode = opcode;
        wr.flags = SendWr.SIGNALED;
        wr.sgl.add(a.at(offset), length, a.mr.lkey());
        return wr;
    }

    /** The same, aimed at jrxe1's buffer at {@code remoteOffset} with jrxe1's rkey. */
    SendWr remote(WrOpcode opcode, long offset, int length, long remoteOffset) {
        SendWr wr = wr(opcode, offset, length);
        wr.remoteAddr = b.at(remoteOffset);
        wr.rkey = b.mr.rkey();
        return wr;
    }

    /**
     * Posts {@code wr} on {@code qp} where post_send should refuse it, runs the network, and puts in the section the
     * packets (none, the refusal being why) and what post_send said; the refusal, or null when it accepted the WR.
     */
    VerbsException postRefused(Section s, Qp qp, SendWr wr) throws VerbsException {
        VerbsException refused = null;
        try {
            qp.postSend(wr);
        } catch (VerbsException e) {
            refused = e;
        }
        pair.settle();
        packets(s, "post_send refused the WR, so it never reached the send queue");
        s.result(refused == null ? "post_send accepted the WR" : "post_send failed: errno " + refused.errno() + " ("
                + refused.errno().value() + "): " + refused.getMessage());
        return refused;
    }

    /** Moves the packets seen so far into the section ("none" when there were none). */
    void packets(Section s, String none) {
        packets(s, "", none);
    }

    /** The same, each line after {@code prefix} (a part's label). */
    void packets(Section s, String prefix, String none) {
        if (packets.isEmpty()) {
            s.packets.add(prefix + "none: " + none);
        }
        packets.forEach(p -> s.packets.add(prefix + p));
        packets.clear();
    }

    int packetCount() {
        return packets.size();
    }

    /** A completion of jrxe0's, with its vendor_err's meaning ("none" for null). */
    String completion(WorkCompletion wc) {
        return wc == null ? "none" : a.jrxe.describe(wc);
    }

    static QpState state(Nic nic) {
        try {
            return nic.qp.query().state();
        } catch (VerbsException e) {
            return null;
        }
    }

    /** The async events waiting on {@code nic}'s context, each as "jrxe0 async event: ...". */
    static List<String> asyncEvents(Nic nic) throws VerbsException {
        List<String> events = new ArrayList<>();
        String last = null;
        int repeats = 0;
        for (AsyncEvent e = nic.ctx.pollAsyncEvent(); e != null; e = nic.ctx.pollAsyncEvent()) {
            if (e.type() == AsyncEventType.PORT_ACTIVE) {
                continue; // the device coming up, before the mistake
            }
            String text = nic.name + " async event: " + e;
            if (text.equals(last)) {
                repeats++;
                continue;
            }
            if (repeats > 0) {
                events.add("  (" + repeats + " more of the same)");
            }
            events.add(text);
            last = text;
            repeats = 0;
        }
        if (repeats > 0) {
            events.add("  (" + repeats + " more of the same)");
        }
        return events;
    }

    /** One of {@code nic}'s counters, 0 when it has none of that name. */
    static long counter(Nic nic, String name) throws VerbsException {
        Long v = nic.ctx.counters().get(name);
        return v == null ? 0 : v;
    }

    @Override
    public void close() {
        if (capture != null) {
            capture.ended(pair);
        }
        pair.close();
    }
}
