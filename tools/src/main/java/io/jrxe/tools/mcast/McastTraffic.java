package io.jrxe.tools.mcast;

import io.jrxe.verbs.idle.Nap;
import io.jrxe.tools.UserError;
import io.jrxe.tools.common.Gids;
import io.jrxe.tools.common.LocalDevice;
import io.jrxe.tools.common.VendorErrText;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;

import java.io.PrintWriter;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.locks.LockSupport;

/**
 * What `jrxe mcast` does on its endpoint: keeps receives posted, sends numbered datagrams (each waited for), and
 * prints each datagram that arrives with where it came from (the IP header in its GRH area, the source QP in its
 * completion). A wait polls the CQs, which also runs an invoked jrxe NIC, and ends after the timeout with one line
 * that says what was missing.
 */
final class McastTraffic {
    private static final long IDLE_PARK_NANOS = 50_000;

    private final McastEndpoint ep;
    private final LocalDevice dev;
    private final PrintWriter out;
    private final long timeoutNanos;
    private final WorkCompletion[] one = {new WorkCompletion()};
    private int posted;
    private int received;
    private int expected;

    McastTraffic(McastEndpoint ep, LocalDevice dev, PrintWriter out, int timeoutMillis) {
        this.ep = ep;
        this.dev = dev;
        this.out = out;
        this.timeoutNanos = timeoutMillis * 1_000_000L;
    }

    int received() {
        return received;
    }

    /** Posts receives for the first of {@code count} datagrams, as many as there are slots. */
    void postReceives(int count) throws VerbsException {
        expected = count;
        while (posted < Math.min(count, McastEndpoint.RECEIVE_SLOTS)) {
            ep.postReceive(posted++);
        }
    }

    /** Sends datagram {@code number} of {@code total} and waits for its send completion. */
    void send(int number, int total, int size, int qkey, int sgidIndex, InetAddress group) throws VerbsException {
        String text = String.format("jrxe mcast %d/%d from %s QP 0x%06x ", number, total, dev.name(), ep.qp.qpNum());
        byte[] bytes = new byte[size];
        byte[] t = text.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < size; i++) {
            bytes[i] = i < t.length ? t[i] : (byte) '.';
        }
        MemorySegment.copy(bytes, 0, ep.sendSlot(), ValueLayout.JAVA_BYTE, 0, size);
        ep.send(number, size, qkey, sgidIndex, 64);
        long deadline = System.nanoTime() + timeoutNanos;
        while (ep.sendCq.poll(one) == 0) {
            if (System.nanoTime() - deadline > 0) {
                throw new UserError("datagram " + number + " to " + Gids.ip(group) + " did not complete in "
                        + seconds() + " s");
            }
            idle();
        }
        if (one[0].status() != WcStatus.SUCCESS) {
            throw new UserError("datagram " + number + " to " + Gids.ip(group) + " failed: "
                    + one[0].status().description() + " (" + VendorErrText.vendorErr(ep.sendCq, one[0]) + ")");
        }
        out.printf("sent %d/%d: %d bytes to %s, QP 0xffffff%n", number, total, size, Gids.ip(group));
        out.flush();
    }

    /** Prints the datagrams that have arrived by now, without waiting. */
    void receiveWaiting(int count) throws VerbsException {
        while (received < count && ep.recvCq.poll(one) == 1) {
            handle(one[0]);
        }
    }

    /** Waits {@code millis} between two sends, printing what arrives meanwhile. */
    void pace(int millis, int count) throws VerbsException {
        long until = System.nanoTime() + millis * 1_000_000L;
        while (System.nanoTime() - until < 0) {
            receiveWaiting(count);
            idle();
        }
    }

    /** Waits for the datagrams still missing of {@code count}, at most the timeout for each. */
    void receive(int count) throws VerbsException {
        long deadline = System.nanoTime() + timeoutNanos;
        while (received < count) {
            if (ep.recvCq.poll(one) == 1) {
                handle(one[0]);
                deadline = System.nanoTime() + timeoutNanos;
                continue;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new UserError(String.format("received %d of %d datagrams: none came in the last %s s (--timeout)",
                        received, count, seconds()));
            }
            idle();
        }
    }

    private void handle(WorkCompletion wc) throws VerbsException {
        if (wc.status() != WcStatus.SUCCESS) {
            throw new UserError("a receive failed: " + wc.status().description() + " (" + VendorErrText.vendorErr(ep.recvCq, wc)
                    + ")");
        }
        received++;
        int slot = (int) wc.wrId();
        long at = ep.slotOffset(slot);
        int length = wc.byteLen() - McastEndpoint.GRH;
        // mckey sends SEND_WITH_IMM, its QPN as the immediate data: printed, a receiver can tell senders apart by it
        out.printf("received %d/%d: %d bytes from %s QP 0x%06x: %s%s%n", received, expected, length, source(at),
                wc.srcQp(), text(at + McastEndpoint.GRH, length),
                wc.hasImmediate() ? String.format(" (immediate 0x%08x)", wc.immData()) : "");
        out.flush();
        if (posted < expected) {
            ep.postReceive(slot);
            posted++;
        }
    }

    /** The source address of the IP header in a slot's GRH area: IPv6 fills 40 bytes, IPv4 the last 20. */
    private String source(long at) {
        MemorySegment grh = ep.buf.asSlice(at, McastEndpoint.GRH);
        boolean ipv6 = (grh.get(ValueLayout.JAVA_BYTE, 0) & 0xF0) == 0x60;
        byte[] ip = new byte[ipv6 ? 16 : 4];
        MemorySegment.copy(grh, ValueLayout.JAVA_BYTE, ipv6 ? 8 : 20 + 12, ip, 0, ip.length);
        try {
            return Gids.ip(InetAddress.getByAddress(ip));
        } catch (UnknownHostException e) {
            return "?";
        }
    }

    /** The datagram's printable start, in quotes (at most 60 characters). */
    private String text(long at, int length) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < Math.min(length, 60); i++) {
            int c = ep.buf.get(ValueLayout.JAVA_BYTE, at + i) & 0xFF;
            sb.append(c >= 0x20 && c < 0x7F ? (char) c : '.');
        }
        return sb.append(length > 60 ? "...\"" : "\"").toString();
    }

    private String seconds() {
        return String.valueOf(timeoutNanos / 1_000_000_000.0).replaceAll("\\.0$", "");
    }

    /** The NIC that makes the completions is a thread of this machine too: let go of the CPU between looks. */
    private static void idle() {
        Nap.forNanos(IDLE_PARK_NANOS);
    }
}
