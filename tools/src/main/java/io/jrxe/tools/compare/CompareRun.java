package io.jrxe.tools.compare;

import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.VerbsException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Runs a scenario's steps on one setup, through the verbs API only, and observes each: a new connection per step,
 * the step's work, every completion that came, the QPs' states, the counters that moved; at the end, the packets of
 * each step, told apart by the step's QP numbers.
 */
final class CompareRun {
    private final Rig rig;
    private final Mtu mtu;
    private final long timeoutNanos;
    private final String injectInto;
    private String packetsWhy;

    /**
     * @param injectInto a step whose B rkey this run gets wrong (a test's way to make two setups differ), or null
     */
    CompareRun(Rig rig, Mtu mtu, long timeoutNanos, String injectInto) {
        this.rig = rig;
        this.mtu = mtu;
        this.timeoutNanos = timeoutNanos;
        this.injectInto = injectInto;
    }

    List<Observation> run(List<Step> steps) {
        List<Observation> seen = new ArrayList<>();
        for (Step s : steps) {
            seen.add(observe(s));
        }
        PacketSource.Seen packets = rig.packets().collect();
        packetsWhy = packets.why();
        List<List<String>> perStep = new ArrayList<>();
        boolean any = false;
        for (Observation o : seen) {
            List<String> mine = packets.packets() == null ? null : packetsOf(o, packets.packets());
            any |= mine != null && !mine.isEmpty();
            perStep.add(mine);
        }
        if (packets.packets() != null && !any) {
            // A capture of something else (or of an interface these packets never crossed) says nothing about them.
            packetsWhy = "the capture holds none of the run's packets (" + packets.packets().size() + " others)";
        }
        List<Observation> out = new ArrayList<>();
        for (int i = 0; i < seen.size(); i++) {
            out.add(seen.get(i).withPackets(packetsWhy != null ? null : perStep.get(i)));
        }
        return out;
    }

    /** After {@link #run}: why the setup's packets were not seen, or null when they were. */
    String packetsWhy() {
        return packetsWhy;
    }

    private Observation observe(Step s) {
        Map<String, Long> before = rig.counters();
        String title = s.title().apply(mtu);
        StepEnv env = null;
        String memory = "-";
        String states = "-";
        String error = null;
        int qpA = -1;
        int qpB = -1;
        try (Connection c = Connection.open(rig.a, rig.b, s.settings(), mtu)) {
            qpA = c.qpA.qpNum();
            qpB = c.qpB.qpNum();
            env = new StepEnv(rig.a, rig.b, c, mtu, timeoutNanos, s.id().equals(injectInto));
            try {
                memory = s.body().run(env);
            } catch (VerbsException e) {
                error = e.getMessage();
            }
            env.drainBoth();
            states = c.states();
        } catch (VerbsException e) {
            error = "connecting the step's QPs: " + e.getMessage();
        }
        return new Observation(s, title, env == null ? List.of() : env.onA, env == null ? List.of() : env.onB, memory,
                states, moved(before, rig.counters()), qpA, qpB, env == null ? null : env.speed, error, null);
    }

    private static Map<String, Long> moved(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> moved = new TreeMap<>();
        after.forEach((k, v) -> {
            long d = v - before.getOrDefault(k, 0L);
            if (d != 0) {
                moved.put(k, d);
            }
        });
        return moved;
    }

    /** The step's packets: those to its B QP at B's GID (A>B) and to its A QP at A's GID (B>A). */
    private List<String> packetsOf(Observation o, List<WirePacket> all) {
        byte[] gidA = rig.a.gid.gid();
        byte[] gidB = rig.b.gid.gid();
        List<String> mine = new ArrayList<>();
        for (WirePacket p : all) {
            boolean toB = p.to(gidB, o.qpB());
            if (toB || p.to(gidA, o.qpA())) {
                mine.add(p.describe(toB, QpSettings.PSN_A, QpSettings.PSN_B));
            }
        }
        return mine;
    }
}
