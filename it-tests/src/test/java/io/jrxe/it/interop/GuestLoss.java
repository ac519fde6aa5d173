package io.jrxe.it.interop;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * netem on the guest's eth0 for the length of a test: what the guest sends is lost at the given rate (the host's
 * kernel here has no netem, so the way to the guest stays lossless). Closing it removes the qdisc.
 */
final class GuestLoss implements AutoCloseable {
    private final Lab lab;

    private GuestLoss(Lab lab) {
        this.lab = lab;
    }

    /** Loses {@code percent} % of what the guest sends from now on. */
    static GuestLoss of(Lab lab, int percent) throws InterruptedException {
        return netem(lab, "loss " + percent + "%");
    }

    /** Applies netem's {@code impairments} (such as {@code delay 2ms loss 3% duplicate 2%}) to what the guest sends from now on. */
    static GuestLoss netem(Lab lab, String impairments) throws InterruptedException {
        Job.Result netem = lab.guestNow("tc qdisc replace dev eth0 root netem " + impairments, 20);
        assertThat(netem.exitCode()).as("%s", netem).isZero();
        return new GuestLoss(lab);
    }

    /** Checks that netem did drop packets, so that the test met the loss it was about. */
    void assertDropped() throws InterruptedException {
        assertThat(dropped()).as("packets netem dropped").isPositive();
    }

    /** How many packets netem has dropped so far, of every kind (RoCE, and the TCP of perftest's exchange). */
    long dropped() throws InterruptedException {
        Job.Result stats = lab.guestNow("tc -s qdisc show dev eth0", 20);
        Matcher dropped = Pattern.compile("dropped (\\d+)").matcher(stats.output());
        assertThat(dropped.find()).as("netem's statistics: %s", stats).isTrue();
        return Long.parseLong(dropped.group(1));
    }

    @Override
    public void close() throws InterruptedException {
        lab.guestNow("tc qdisc del dev eth0 root", 20);
    }
}
