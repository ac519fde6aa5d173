package io.jrxe.tools.mcast;

import io.jrxe.tools.JrxeMain;
import io.jrxe.tools.common.BadOptionAnswer;
import io.jrxe.tools.common.InProcess;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `jrxe mcast`: two receivers on jrxe NICs get each datagram a third sends to the group, printed with its sender;
 * a receiver that waits in vain says so in one line (exit 2); bad options are one line naming them (exit 1).
 */
class McastCommandTest {
    private static void bad(String mentions, String... args) {
        BadOptionAnswer.check(InProcess.run(args), "mcast", mentions);
    }

    @Test
    void badOptionsAreOneLineNamingThem() {
        bad("nothing to do", "mcast", "239.1.2.3");
        bad("GROUP 10.1.2.3: not a multicast address", "mcast", "10.1.2.3", "--send", "1");
        bad("GROUP nonsense: not an IP address", "mcast", "nonsense", "--send", "1");
        bad("--recv -1", "mcast", "239.1.2.3", "--recv", "-1");
        bad("-s/--size 0", "mcast", "239.1.2.3", "--send", "1", "-s", "0");
        bad("--interval 70000", "mcast", "239.1.2.3", "--send", "1", "--interval", "70000");
        bad("--qkey 0x80000000", "mcast", "239.1.2.3", "--send", "1", "--qkey", "0x80000000");
        bad("--qkey abc: not a number", "mcast", "239.1.2.3", "--send", "1", "--qkey", "abc");
        bad("GROUP ff0e::1 is IPv6 but jrxe-mc-v4 has no RoCE v2 GID of that family: give --addr an IPv6 address",
                "mcast", "ff0e::1", "--send", "1", "-d", "jrxe-mc-v4", "--addr", "127.0.1.91");
        bad("-s/--size 2000: larger than the port's active MTU (1024)", "mcast", "239.1.2.3", "--send", "1", "-s", "2000",
                "-d", "jrxe-mc-mtu", "--addr", "127.0.1.92");
        bad("--no-ip-join applies to kernel devices", "mcast", "239.1.2.3", "--recv", "1", "--no-ip-join",
                "-d", "jrxe-mc-join", "--addr", "127.0.1.93");
    }

    @Test
    void aReceiverThatGetsNothingSaysSoInOneLine() {
        String group = randomGroup();
        InProcess r = InProcess.run("mcast", group, "--recv", "1", "--timeout", "0.3", "-d", "jrxe-mc-none", "--addr", randomLoopback());
        assertThat(r.status()).as(r.toString()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("jrxe mcast: received 0 of 1 datagrams: none came in the last 0.3 s (--timeout)");
        assertThat(r.out()).contains("attached QP", "waiting for 1 datagram");
    }

    @Test
    void twoReceiversGetEveryDatagramTheSenderSends() throws Exception {
        String group = randomGroup();
        String sender = randomLoopback();
        Receiver one = Receiver.start("jrxe-mc-r1", randomLoopback(), group);
        Receiver two = Receiver.start("jrxe-mc-r2", randomLoopback(), group);
        assertThat(one.attached.await(60, TimeUnit.SECONDS)).as("receiver 1 attached: %s", one.out).isTrue();
        assertThat(two.attached.await(60, TimeUnit.SECONDS)).as("receiver 2 attached: %s", two.out).isTrue();
        InProcess s = InProcess.run("mcast", group, "--send", "3", "--interval", "0", "-s", "100", "-d", "jrxe-mc-s",
                "--addr", sender, "--counters");
        assertThat(s.status()).as(s.toString()).isZero();
        assertThat(s.lines()).filteredOn(l -> l.startsWith("sent ")).hasSize(3);
        assertThat(s.err()).contains("jrxe_mcast_sent_pkts=3");
        for (Receiver r : new Receiver[] {one, two}) {
            int status = r.status.get(60, TimeUnit.SECONDS);
            String out = r.out.toString();
            assertThat(status).as(out + r.err).isZero();
            assertThat(out.lines().filter(l -> l.startsWith("received "))).as(out).hasSize(3)
                    .allSatisfy(l -> assertThat(l).contains("100 bytes from " + sender + " QP 0x", "jrxe mcast "));
            assertThat(out).contains("mcast: sent 0, received 3");
        }
    }

    /** A receiver running `jrxe mcast --recv 3` on a thread of its own; {@link #attached} opens when it waits. */
    private record Receiver(StringWriter out, StringWriter err, CountDownLatch attached, CompletableFuture<Integer> status) {
        static Receiver start(String device, String address, String group) {
            CountDownLatch attached = new CountDownLatch(1);
            StringWriter out = new StringWriter() {
                @Override
                public void write(String s, int off, int len) {
                    super.write(s, off, len);
                    if (toString().contains("waiting for")) {
                        attached.countDown();
                    }
                }
            };
            StringWriter err = new StringWriter();
            CompletableFuture<Integer> status = CompletableFuture.supplyAsync(() -> JrxeMain.run(new String[] {"mcast", group,
                "--recv", "3", "--timeout", "60", "-d", device, "--addr", address}, new PrintWriter(out, true), new PrintWriter(err, true)),
                    // a thread each: the common pool may have one thread on a small machine, and the first receiver would hold it
                    task -> Thread.ofPlatform().daemon().name("mcast-" + device).start(task));
            return new Receiver(out, err, attached, status);
        }
    }

    private static String randomGroup() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        return "239." + (192 + r.nextInt(4)) + "." + r.nextInt(256) + "." + (1 + r.nextInt(254));
    }

    private static String randomLoopback() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        return "127." + (150 + r.nextInt(50)) + "." + r.nextInt(256) + "." + (1 + r.nextInt(254));
    }
}
