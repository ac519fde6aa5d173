package io.jrxe.tools.demo;

import io.jrxe.verbs.QpState;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.facade.Verbs;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.wire.capture.CaptureTap;
import io.jrxe.wire.capture.PcapngWriter;
import io.jrxe.wire.port.fault.FaultSpec;
import io.jrxe.wire.port.PacketTap;
import io.jrxe.wire.port.PeerAddress;

import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The demo: two NICs in one process talking RoCEv2 over real UDP on loopback, one work request
 * of each kind, each step told as a story (the WR, the packets that crossed, the completion).
 */
final class Demo {
    private static final long STEP_TIMEOUT = 5_000_000_000L;
    /** jrxe1's first QP number; jrxe0's is rxe's 0x11. */
    static final int JRXE1_FIRST_QPN = 0x42;
    /** jrxe1's first MPT index (its first key is 0x20xx); jrxe0's is 1 (0x1xx). */
    static final int JRXE1_FIRST_KEY_INDEX = 0x20;

    private final PrintWriter out;
    private final DemoPlacement placement;
    private final Path capture;
    /** What jrxe0's port does to its packets: none unless --faults asked for some. */
    private final FaultSpec faults;
    private final PacketLog log = new PacketLog();
    private int failures;
    private long wrIds;

    Demo(PrintWriter out, DemoPlacement placement, Path capture, FaultSpec faults) {
        this.out = out;
        this.placement = placement;
        this.capture = capture;
        this.faults = faults;
    }

    /** Runs every step; true when each behaved as expected. */
    boolean run() throws Exception {
        EmulatedDevice devA = null;
        EmulatedDevice devB = null;
        CaptureTap tap = capture == null ? null : new CaptureTap(new PcapngWriter(capture), 100_000, 256L << 20);
        try (Arena arena = Arena.ofShared()) {
            if (placement.notice() != null) {
                out.printf("jrxe demo: %s%n", placement.notice());
            }
            devA = Verbs.emulated().createUdp(placement.configA("jrxe0").withFaults(faults));
            devB = Verbs.emulated().createUdp(placement.configBNumberedApart("jrxe1"));
            DemoSide a = new DemoSide("jrxe0", devA, arena);
            DemoSide b = new DemoSide("jrxe1", devB, arena);
            install(devA, "jrxe0", devB, "jrxe1", tap);
            install(devB, "jrxe1", devA, "jrxe0", tap);
            out.printf("jrxe demo: two software RDMA NICs on one host, RoCEv2 over UDP %s%n",
                    placement.sharedAddress() ? "ports " + placement.portA() + " and " + placement.portB() + " of one address"
                            : "port " + placement.portA());
            out.printf("  jrxe0 at %s, jrxe1 at %s, transport %s, path MTU %d%n", placement.where(placement.addressA(),
                    placement.portA()), placement.where(placement.addressB(), placement.portB()), devA.nic().port().getClass().getSimpleName().equals("UdpPort")
                            ? ((io.jrxe.wire.port.udp.UdpPort) devA.nic().port()).transport().describe() : "?",
                    devA.nic().resources().port().activeMtu().bytes());
            io.jrxe.wire.port.raw.TransmitPath transmit = io.jrxe.tools.common.TransmitNotice.of(devA);
            if (transmit != null) {
                // Both devices are jrxe, so the demo works either way; the line tells what a kernel rxe peer would see.
                out.printf("  %s%n", transmit.describe());
            }
            a.connectTo(b, 0x1000, 0x2000);
            b.connectTo(a, 0x2000, 0x1000);
            out.printf("  RC QP 0x%06x (jrxe0) <-> RC QP 0x%06x (jrxe1), both in RTS%n", a.qp.qpNum(), b.qp.qpNum());
            out.printf("  a packet's BTH names the destination QP only: qp=0x%06x on the way to jrxe1, qp=0x%06x back%n",
                    b.qp.qpNum(), a.qp.qpNum());
            out.printf("  each NIC makes its own keys: jrxe0's MR has key 0x%x, jrxe1's 0x%x; jrxe0 writes and reads with jrxe1's%n%n",
                    a.mr.lkey(), b.mr.rkey());
            log.drain();

            sendRecv(a, b);
            sendWithImm(a, b);
            write(a, b);
            writeWithImm(a, b);
            read(a, b);
            compareSwap(a, b);
            fetchAdd(a, b);
            multiPacket(a, b);
            wrongRkey(a, b);

            out.println("Counters (non-zero; rxe's hw_counters under their names):");
            counters(a);
            counters(b);
            out.println("  rdma_sends counts the SEND work requests that completed (steps 1 and 2), not the WRITEs, the READ"
                    + " or the atomics; rdma_recvs counts the receives consumed (steps 1, 2 and the WRITE_WITH_IMM of 4).");
            timing();
        } finally {
            if (devA != null) {
                Verbs.emulated().remove(devA);
            }
            if (devB != null) {
                Verbs.emulated().remove(devB);
            }
            if (tap != null) {
                tap.close();
            }
        }
        if (capture != null) {
            out.printf("%nCapture: %s (%d packets: each one as sent and as received). Open it with:%n  tshark -r %s%n  wireshark %s%n  ./jrxe decode %s%n",
                    capture, tap.written(), capture, capture, capture);
        }
        out.println(failures == 0 ? "\nAll steps behaved as expected." : "\n" + failures + " step(s) did not behave as expected.");
        return failures == 0;
    }

    private void install(EmulatedDevice dev, String name, EmulatedDevice peer, String peerName, CaptureTap capture) {
        PacketTap logTap = log.tap(name, PeerAddress.of(peer.nic().resources().config().addresses().getFirst()), peerName);
        dev.nic().port().tap(capture == null ? logTap : PacketTap.both(capture.forPort(name), logTap));
    }

    private void sendRecv(DemoSide a, DemoSide b) throws VerbsException {
        byte[] text = "hello from jrxe0".getBytes(StandardCharsets.US_ASCII);
        a.memory.asSlice(0, text.length).copyFrom(MemorySegment.ofArray(text));
        postRecv(b, 0, 256);
        SendWr wr = send(a, WrOpcode.SEND, 0, text.length);
        step("1. SEND / RECV: jrxe0 sends 16 bytes into a receive buffer jrxe1 posted", a, b, wr,
                WcStatus.SUCCESS, WcOpcode.SEND, WcOpcode.RECV,
                () -> new String(b.memory.asSlice(0, text.length).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.US_ASCII)
                        .equals("hello from jrxe0"), "jrxe1's buffer now holds \"hello from jrxe0\"");
    }

    private void sendWithImm(DemoSide a, DemoSide b) throws VerbsException {
        postRecv(b, 1024, 256);
        SendWr wr = send(a, WrOpcode.SEND_WITH_IMM, 0, 8);
        wr.immData = 0xC0FFEE;
        step("2. SEND_WITH_IMM: 8 bytes plus 32 bits of immediate data for the receiver's completion", a, b, wr,
                WcStatus.SUCCESS, WcOpcode.SEND, WcOpcode.RECV, () -> lastRecvImm == 0xC0FFEE,
                "jrxe1's completion carries imm_data 0x00c0ffee");
    }

    private void write(DemoSide a, DemoSide b) throws VerbsException {
        a.memory.asSlice(4096, 64).fill((byte) 0x5A);
        SendWr wr = send(a, WrOpcode.RDMA_WRITE, 4096, 64);
        wr.remoteAddr = b.memory.address() + 8192;
        wr.rkey = b.mr.rkey();
        step("3. RDMA_WRITE: 64 bytes straight into jrxe1's memory (rkey 0x" + Integer.toHexString(b.mr.rkey())
                + "), no receive, no CPU on jrxe1", a, null, wr, WcStatus.SUCCESS, WcOpcode.RDMA_WRITE, null,
                () -> b.memory.get(ValueLayout.JAVA_BYTE, 8192 + 63) == 0x5A, "jrxe1's memory at +8192 holds 64 x 0x5a");
    }

    private void writeWithImm(DemoSide a, DemoSide b) throws VerbsException {
        postRecv(b, 2048, 256);
        SendWr wr = send(a, WrOpcode.RDMA_WRITE_WITH_IMM, 4096, 32);
        wr.remoteAddr = b.memory.address() + 12288;
        wr.rkey = b.mr.rkey();
        wr.immData = 42;
        step("4. RDMA_WRITE_WITH_IMM: a write that also consumes a receive to tell jrxe1 it happened", a, b, wr,
                WcStatus.SUCCESS, WcOpcode.RDMA_WRITE, WcOpcode.RECV_RDMA_WITH_IMM, () -> lastRecvImm == 42,
                "jrxe1 got RECV_RDMA_WITH_IMM with imm_data 42");
    }

    private void read(DemoSide a, DemoSide b) throws VerbsException {
        byte[] text = "read me, jrxe0!".getBytes(StandardCharsets.US_ASCII);
        b.memory.asSlice(16384, text.length).copyFrom(MemorySegment.ofArray(text));
        SendWr wr = send(a, WrOpcode.RDMA_READ, 20480, text.length);
        wr.remoteAddr = b.memory.address() + 16384;
        wr.rkey = b.mr.rkey();
        step("5. RDMA_READ: jrxe0 fetches 15 bytes from jrxe1's memory", a, null, wr, WcStatus.SUCCESS,
                WcOpcode.RDMA_READ, null,
                () -> new String(a.memory.asSlice(20480, text.length).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.US_ASCII)
                        .equals("read me, jrxe0!"), "jrxe0's buffer now holds \"read me, jrxe0!\"");
    }

    private void compareSwap(DemoSide a, DemoSide b) throws VerbsException {
        b.memory.set(ValueLayout.JAVA_LONG, 24576, 7);
        SendWr wr = send(a, WrOpcode.ATOMIC_CMP_AND_SWP, 28672, 8);
        wr.remoteAddr = b.memory.address() + 24576;
        wr.rkey = b.mr.rkey();
        wr.compareAdd = 7;
        wr.swap = 99;
        step("6. ATOMIC_CMP_AND_SWP: if jrxe1's word is 7, make it 99, atomically", a, null, wr, WcStatus.SUCCESS,
                WcOpcode.COMP_SWAP, null,
                () -> b.memory.get(ValueLayout.JAVA_LONG, 24576) == 99 && a.memory.get(ValueLayout.JAVA_LONG, 28672) == 7,
                "jrxe1's word is 99; jrxe0 got the old value 7");
    }

    private void fetchAdd(DemoSide a, DemoSide b) throws VerbsException {
        SendWr wr = send(a, WrOpcode.ATOMIC_FETCH_AND_ADD, 28672, 8);
        wr.remoteAddr = b.memory.address() + 24576;
        wr.rkey = b.mr.rkey();
        wr.compareAdd = 1;
        step("7. ATOMIC_FETCH_AND_ADD: add 1 to jrxe1's word, get the old value back", a, null, wr, WcStatus.SUCCESS,
                WcOpcode.FETCH_ADD, null,
                () -> b.memory.get(ValueLayout.JAVA_LONG, 24576) == 100 && a.memory.get(ValueLayout.JAVA_LONG, 28672) == 99,
                "jrxe1's word is 100; jrxe0 got the old value 99");
    }

    private void multiPacket(DemoSide a, DemoSide b) throws VerbsException {
        int length = 3 * a.device.nic().resources().port().activeMtu().bytes() + 100;
        for (int i = 0; i < length; i++) {
            a.memory.set(ValueLayout.JAVA_BYTE, 32768 + i, (byte) (i * 7));
        }
        SendWr wr = send(a, WrOpcode.RDMA_WRITE, 32768, length);
        wr.remoteAddr = b.memory.address() + 32768;
        wr.rkey = b.mr.rkey();
        step("8. A message of several packets: a " + length + "-byte RDMA_WRITE, cut at the path MTU (FIRST, MIDDLE, LAST)",
                a, null, wr, WcStatus.SUCCESS, WcOpcode.RDMA_WRITE, null,
                () -> b.memory.asSlice(32768, length).mismatch(a.memory.asSlice(32768, length)) == -1,
                "all " + length + " bytes arrived in order");
    }

    private void wrongRkey(DemoSide a, DemoSide b) throws VerbsException {
        SendWr wr = send(a, WrOpcode.RDMA_WRITE, 4096, 64);
        wr.remoteAddr = b.memory.address();
        wr.rkey = b.mr.rkey() + 1;
        step("9. A deliberate mistake: an RDMA_WRITE with a wrong rkey (jrxe1's plus one, 0x" + Integer.toHexString(wr.rkey)
                        + ")", a, null,
                wr, WcStatus.REM_ACCESS_ERR, WcOpcode.RDMA_WRITE, null, () -> {
                    try {
                        return a.qp.query().state() == QpState.ERR;
                    } catch (VerbsException e) {
                        return false;
                    }
                }, "jrxe1 answered NAK (remote access error); jrxe0's QP went to the error state, as IBTA requires");
    }

    private int lastRecvImm;
    /** Each step's time from its first packet sent to its last one (the request's to the answer's). */
    private final List<Long> wireNanos = new ArrayList<>();

    private void step(String title, DemoSide sender, DemoSide receiver, SendWr wr, WcStatus expected, WcOpcode sendOpcode,
                      WcOpcode recvOpcode, java.util.function.BooleanSupplier check, String outcome) throws VerbsException {
        out.println(title);
        out.printf("  WR posted on jrxe0: %s wr_id=%d, %d bytes%s%n", wr.opcode, wr.wrId, wr.sgl.totalLength(),
                wr.rkey != 0 ? String.format(", remote 0x%x rkey 0x%x", wr.remoteAddr, wr.rkey) : "");
        sender.qp.postSend(wr);
        WorkCompletion sc = sender.await(STEP_TIMEOUT);
        WorkCompletion rc = receiver == null ? null : receiver.await(STEP_TIMEOUT);
        List<PacketLog.Logged> packets = log.drain();
        for (PacketLog.Logged p : packets) {
            out.println("  packet: " + p.line());
        }
        if (packets.size() > 1) {
            wireNanos.add(packets.getLast().sentNanos() - packets.getFirst().sentNanos());
        }
        boolean ok = sc != null && sc.status() == expected && sc.opcode() == sendOpcode && sc.wrId() == wr.wrId;
        out.printf("  completion on jrxe0: %s%n", sc == null ? "none within 5 s" : sender.describe(sc));
        if (receiver != null) {
            out.printf("  completion on jrxe1: %s%n", rc == null ? "none within 5 s" : receiver.describe(rc));
            ok &= rc != null && rc.status() == WcStatus.SUCCESS && rc.opcode() == recvOpcode;
            if (rc != null) {
                lastRecvImm = rc.immData();
            }
        }
        ok &= check.getAsBoolean();
        out.printf("  %s %s%n%n", ok ? "ok:" : "UNEXPECTED:", ok ? outcome : "expected " + expected + " and: " + outcome);
        if (!ok) {
            failures++;
        }
        out.flush();
    }

    /**
     * Step 1's answer takes far longer than the others' in a fresh JVM (tens of ms against about one): its packets run
     * the send, receive and ACK code for the first time, loaded, linked and interpreted then. Said here, since the
     * capture's times and `jrxe view`'s ladder show the wait without a reason.
     */
    private void timing() {
        if (wireNanos.size() < 2) {
            return;
        }
        List<Long> others = new ArrayList<>(wireNanos.subList(1, wireNanos.size()));
        others.sort(null);
        out.printf("%nTimes: step 1's answer left jrxe1 %s after its request left jrxe0; the other steps' took %s (median)."
                        + "%n  Step 1's packets are the first to run the send, receive and ACK code, which this JVM loads and"
                        + "%n  interprets then: a cost of the program's start, not of RDMA. The capture keeps these times;"
                        + "%n  `jrxe view` draws a wait longer than four rows shorter, with a dotted line saying how long it was.%n",
                millis(wireNanos.getFirst()), millis(others.get(others.size() / 2)));
    }

    static String millis(long nanos) {
        return String.format("%.3f ms", nanos / 1e6);
    }

    private SendWr send(DemoSide s, WrOpcode op, long offset, int length) {
        SendWr wr = new SendWr(2);
        wr.wrId = ++wrIds;
        wr.opcode = op;
        wr.flags = SendWr.SIGNALED;
        wr.sgl.add(s.memory.address() + offset, length, s.mr.lkey());
        return wr;
    }

    private void postRecv(DemoSide s, long offset, int length) throws VerbsException {
        RecvWr r = new RecvWr(2);
        r.wrId = 1000 + (++wrIds);
        r.sgl.add(s.memory.address() + offset, length, s.mr.lkey());
        s.qp.postRecv(r);
    }

    private void counters(DemoSide s) throws VerbsException {
        StringBuilder sb = new StringBuilder("  " + s.name + ":");
        for (Map.Entry<String, Long> c : s.ctx.counters().entrySet()) {
            if (c.getValue() != 0) {
                sb.append(' ').append(c.getKey()).append('=').append(c.getValue());
            }
        }
        out.println(sb);
    }
}
