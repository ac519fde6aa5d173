package io.jrxe.it.interop;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two network namespaces in the guest joined by a veth pair, the sender's end limited in rate and marking ECN: what
 * a congested switch port is to RoCE, made of the guest kernel's qdiscs (the host's kernel here has no RED). The
 * sender's egress is an htb class at the bottleneck rate whose queue is a RED qdisc with {@code ecn}: RED marks an
 * ECN-capable packet CE instead of dropping it, early (between its thresholds, with a probability) and always above
 * its upper threshold, and drops only what finds its byte limit full. RED rather than fq_codel: RED's marks follow
 * the queue's length in bytes, which the sending rate sets whatever the CPU time of a guest under TCG, while
 * CoDel's follow each packet's time in the queue and its control law, and fq_codel hashes the one flow into one
 * queue anyway. Closing it removes both namespaces (the veth and the qdiscs go with them).
 */
final class GuestBottleneck implements AutoCloseable {
    static final String SENDER_NETNS = "jrxe-ecn-snd";
    static final String RECEIVER_NETNS = "jrxe-ecn-rcv";
    static final String SENDER_ADDR = "10.78.0.1";
    static final String RECEIVER_ADDR = "10.78.0.2";
    private static final String LINK = "jrxe-ecn";
    private static final int GUEST_LIMIT = 30;
    private static final String SAMPLES = "/tmp/jrxe-ecn-queue.txt";
    /** Ten minutes of samples at most (each takes longer than its tenth of a second under TCG). */
    private static final int MAX_SAMPLES = 6000;
    private static final Pattern SAMPLE = Pattern.compile("([\\d.]+) (\\d+)b (\\d+),?");

    private final Lab lab;

    private GuestBottleneck(Lab lab) {
        this.lab = lab;
    }

    /**
     * Builds the namespaces and the link, the sender's side limited to {@code megabits} Mbit/s with RED marking from
     * {@code minBytes} queued, always from {@code maxBytes}, dropping at {@code limitBytes}.
     */
    static GuestBottleneck of(Lab lab, int megabits, int minBytes, int maxBytes, int limitBytes) throws InterruptedException {
        String snd = "ip netns exec " + SENDER_NETNS + " ";
        String rcv = "ip netns exec " + RECEIVER_NETNS + " ";
        // avpkt: a jrxe packet of a 1024-byte path MTU on the wire; burst: RED's usual (2 min + max) / (3 avpkt).
        int avpkt = 1100;
        // Namespaces a killed run left behind go first, so that the counters start from zero.
        String script = "{ ip netns del " + SENDER_NETNS + "; ip netns del " + RECEIVER_NETNS + "; } 2>/dev/null; " + String.join(" && ",
                "modprobe -a veth sch_htb sch_red",
                "ip netns add " + SENDER_NETNS, "ip netns add " + RECEIVER_NETNS,
                "ip link add " + LINK + "-s netns " + SENDER_NETNS + " type veth peer name " + LINK + "-r netns " + RECEIVER_NETNS,
                snd + "ip link set lo up", rcv + "ip link set lo up",
                snd + "ip addr add " + SENDER_ADDR + "/24 dev " + LINK + "-s", rcv + "ip addr add " + RECEIVER_ADDR + "/24 dev " + LINK + "-r",
                snd + "ip link set " + LINK + "-s up", rcv + "ip link set " + LINK + "-r up",
                snd + "tc qdisc add dev " + LINK + "-s root handle 1: htb default 1",
                snd + "tc class add dev " + LINK + "-s parent 1: classid 1:1 htb rate " + megabits + "mbit ceil " + megabits + "mbit",
                snd + "tc qdisc add dev " + LINK + "-s parent 1:1 handle 10: red limit " + limitBytes + " min " + minBytes
                        + " max " + maxBytes + " avpkt " + avpkt + " burst " + ((2 * minBytes + maxBytes) / (3 * avpkt) + 1)
                        + " probability 0.1 bandwidth " + megabits + "mbit ecn");
        GuestBottleneck bottleneck = new GuestBottleneck(lab);
        Job.Result made = lab.guestNow(script, GUEST_LIMIT);
        if (made.exitCode() != 0) {
            bottleneck.close();
        }
        assertThat(made.exitCode()).as("the namespaces and the bottleneck: %s", made).isZero();
        return bottleneck;
    }

    /** `COMMAND` in the sender's or the receiver's namespace, as a guest command line. */
    static String inNamespace(String netns, String command) {
        return "ip netns exec " + netns + " " + command;
    }

    /**
     * A guest command line that runs {@code command} while a loop in the sender's namespace reads RED's backlog and
     * drops every tenth of a second into a file of the guest ({@link #samples}). The loop is bounded in count and
     * stops when the command ends.
     */
    static String whileSampling(String command) {
        String sample = inNamespace(SENDER_NETNS, "tc -s qdisc show dev " + LINK + "-s")
                + " | awk -v t=$(date +%s.%N) '/qdisc red/{r=1} r&&/dropped/{d=$7} r&&/backlog/{print t, $2, d; exit}'";
        return "rm -f " + SAMPLES + "; ( for i in $(seq " + MAX_SAMPLES + "); do " + sample + "; sleep 0.1; done ) > " + SAMPLES
                + " 2>&1 & sampler=$!; " + command + "; status=$?; kill $sampler 2>/dev/null; exit $status";
    }

    /** What the sampling loop of {@link #whileSampling} recorded, in its order. */
    List<QueueSample> samples() throws InterruptedException {
        Job.Result cat = lab.guestNow("cat " + SAMPLES, GUEST_LIMIT);
        assertThat(cat.exitCode()).as("%s", cat).isZero();
        List<QueueSample> samples = new ArrayList<>();
        for (String line : cat.output().lines().toList()) {
            Matcher m = SAMPLE.matcher(line);
            if (m.matches()) {
                samples.add(new QueueSample(Double.parseDouble(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3))));
            }
        }
        return samples;
    }

    /** RED's backlog in bytes and its drops so far, at a time in seconds of the guest's clock. */
    record QueueSample(double seconds, long backlogBytes, long dropped) {
    }

    /** What RED on the sender's egress counted so far, from {@code tc -s qdisc}. */
    RedCounts counts() throws InterruptedException {
        Job.Result tc = lab.guestNow(inNamespace(SENDER_NETNS, "tc -s qdisc show dev " + LINK + "-s"), GUEST_LIMIT);
        assertThat(tc.exitCode()).as("%s", tc).isZero();
        return RedCounts.parse(tc.output());
    }

    /**
     * RED's packets sent and dropped, and its own counters: packets marked CE (early or above the upper threshold),
     * dropped early (not ECN-capable) and dropped at the byte limit (pdrop).
     */
    record RedCounts(long sentPackets, long dropped, long marked, long early, long tailDropped) {
        private static final Pattern SENT = Pattern.compile("Sent (\\d+) bytes (\\d+) pkt \\(dropped (\\d+),");
        private static final Pattern RED = Pattern.compile("marked (\\d+) early (\\d+) pdrop (\\d+)");

        /** The RED qdisc's lines of {@code tc -s qdisc}'s output (htb's come first, with their own Sent line). */
        static RedCounts parse(String tcOutput) {
            int at = tcOutput.indexOf("qdisc red ");
            assertThat(at).as("a RED qdisc in %s", tcOutput).isNotNegative();
            Matcher sent = SENT.matcher(tcOutput).region(at, tcOutput.length());
            Matcher red = RED.matcher(tcOutput).region(at, tcOutput.length());
            assertThat(sent.find() && red.find()).as("RED's counters in %s", tcOutput).isTrue();
            return new RedCounts(Long.parseLong(sent.group(2)), Long.parseLong(sent.group(3)), Long.parseLong(red.group(1)),
                    Long.parseLong(red.group(2)), Long.parseLong(red.group(3)));
        }
    }

    @Override
    public void close() throws InterruptedException {
        lab.guestNow("ip netns del " + SENDER_NETNS + "; ip netns del " + RECEIVER_NETNS, GUEST_LIMIT);
    }
}
