package io.jrxe.it;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.facade.Verbs;
import io.jrxe.verbs.emulated.EmulatedDevice;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.concurrent.locks.LockSupport;

/**
 * One side of the cross-process test, run in its own JVM: `server ADDR TCPPORT` or
 * `client ADDR SERVERADDR TCPPORT`. The two exchange QPN, PSN, GID, buffer address and rkey
 * over TCP (one line each way, like the rdma-core examples), connect RC QPs, and the client
 * performs every RC operation against the server; each side checks what it can see and prints
 * `PASS` or `FAIL: why` as its last line.
 */
public final class RcPeer {
    private static final int SIZE = 1 << 20;
    private static final long TIMEOUT = 10_000_000_000L;

    public static void main(String[] args) throws Exception {
        try {
            boolean ok = args[0].equals("server") ? server(args) : client(args);
            System.out.println(ok ? "PASS" : "FAIL");
        } catch (Exception e) {
            System.out.println("FAIL: " + e);
        }
        System.out.flush();
        System.exit(0);
    }

    private record Peer(int qpn, int psn, byte[] gid, long addr, int rkey) {
        String line() {
            return String.format("%06x:%06x:%s:%016x:%08x", qpn, psn, HexFormat.of().formatHex(gid), addr, rkey);
        }

        static Peer parse(String line) {
            String[] f = line.split(":");
            return new Peer(Integer.parseInt(f[0], 16), Integer.parseInt(f[1], 16), HexFormat.of().parseHex(f[2]),
                    Long.parseUnsignedLong(f[3], 16), (int) Long.parseLong(f[4], 16));
        }
    }

    private static final class Side {
        final Context ctx;
        final Pd pd;
        final Cq cq;
        final Qp qp;
        final MemorySegment memory;
        final Mr mr;
        final WorkCompletion[] wc = {new WorkCompletion()};

        Side(EmulatedDevice device, Arena arena) throws Exception {
            ctx = device.open();
            pd = ctx.allocPd();
            cq = ctx.createCq(256, null);
            qp = pd.createQp(new QpInitAttributes(QpType.RC, cq, cq, null, new QpCapabilities(64, 64, 2, 2, 64), false));
            memory = arena.allocate(SIZE, 4096);
            mr = pd.regMr(memory, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC);
        }

        Peer self(int psn) throws Exception {
            return new Peer(qp.qpNum(), psn, ctx.queryGid(1, 1).gid(), memory.address(), mr.rkey());
        }

        void init() throws Exception {
            qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1)
                    .accessFlags(Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC));
        }

        void connect(Peer me, Peer peer) throws Exception {
            if (qp.query().state() == QpState.RESET) {
                init();
            }
            qp.modify(new QpAttributes().state(QpState.RTR).av(AddressVector.to(peer.gid(), 1)).pathMtu(Mtu.MTU_1024)
                    .destQpn(peer.qpn()).rqPsn(peer.psn()).maxDestRdAtomic(4).minRnrTimer(12));
            // timeout 17 (0.5 s) x 8 tries: a cold server JVM on a loaded 2-core machine can take longer than
            // 14's 0.5 s in all to answer its first packet.
            qp.modify(new QpAttributes().state(QpState.RTS).timeout(17).retryCnt(7).rnrRetry(7).sqPsn(me.psn())
                    .maxRdAtomic(4));
        }

        WorkCompletion await() {
            long deadline = System.nanoTime() + TIMEOUT;
            while (System.nanoTime() < deadline) {
                if (cq.poll(wc) == 1) {
                    return wc[0];
                }
                LockSupport.parkNanos(10_000);
            }
            throw new IllegalStateException("no completion within 10 s");
        }

        void expect(WcStatus status, WcOpcode opcode, String what) {
            WorkCompletion c = await();
            if (c.status() != status || c.opcode() != opcode) {
                throw new IllegalStateException(what + ": got " + c);
            }
        }
    }

    private static boolean server(String[] args) throws Exception {
        InetAddress addr = InetAddress.getByName(args[1]);
        EmulatedDevice dev = Verbs.emulated().createUdp(DeviceConfig.of("jrxe-srv", addr));
        try (Arena arena = Arena.ofShared(); ServerSocket listen = new ServerSocket()) {
            Side s = new Side(dev, arena);
            s.init();
            for (int i = 0; i < 4; i++) {
                RecvWr r = new RecvWr(1);
                r.wrId = i;
                r.sgl.add(s.memory.address() + 4096L * i, 8192, s.mr.lkey());
                s.qp.postRecv(r);
            }
            s.memory.set(ValueLayout.JAVA_LONG, 700_000, 10);
            for (int i = 0; i < 5000; i++) {
                s.memory.set(ValueLayout.JAVA_BYTE, 800_000 + i, (byte) (i * 13));
            }
            listen.bind(new InetSocketAddress(addr, Integer.parseInt(args[2])));
            System.out.println("LISTENING");
            System.out.flush();
            listen.setSoTimeout(20_000);
            try (Socket sock = listen.accept()) {
                sock.setSoTimeout(30_000);
                BufferedReader in = new BufferedReader(new InputStreamReader(sock.getInputStream(), StandardCharsets.US_ASCII));
                PrintWriter out = new PrintWriter(sock.getOutputStream(), true, StandardCharsets.US_ASCII);
                Peer client = Peer.parse(in.readLine());
                Peer me = s.self(0x3333);
                s.connect(me, client);
                out.println(me.line());
                s.expect(WcStatus.SUCCESS, WcOpcode.RECV, "SEND");
                s.expect(WcStatus.SUCCESS, WcOpcode.RECV, "SEND_WITH_IMM");
                if (!s.wc[0].hasImmediate() || s.wc[0].immData() != 0x1234) {
                    throw new IllegalStateException("SEND_WITH_IMM carried " + s.wc[0]);
                }
                s.expect(WcStatus.SUCCESS, WcOpcode.RECV_RDMA_WITH_IMM, "RDMA_WRITE_WITH_IMM");
                s.expect(WcStatus.SUCCESS, WcOpcode.RECV, "multi-packet SEND");
                if (s.wc[0].byteLen() != 5000) {
                    throw new IllegalStateException("multi-packet SEND delivered " + s.wc[0].byteLen() + " bytes");
                }
                String done = in.readLine();
                boolean ok = "done".equals(done)
                        && s.memory.get(ValueLayout.JAVA_BYTE, 0) == 'h'
                        && s.memory.get(ValueLayout.JAVA_BYTE, 300_000 + 99) == (byte) 0x77
                        && s.memory.get(ValueLayout.JAVA_LONG, 700_000) == 10 + 100 + 1;
                if (!ok) {
                    throw new IllegalStateException("memory after the client's operations is not as expected (done=" + done + ")");
                }
                for (int i = 0; i < 5000; i++) {
                    if (s.memory.get(ValueLayout.JAVA_BYTE, 3 * 4096 + i) != (byte) (i * 7)) {
                        throw new IllegalStateException("multi-packet SEND byte " + i + " differs");
                    }
                }
                return true;
            }
        } finally {
            Verbs.emulated().remove(dev);
        }
    }

    private static boolean client(String[] args) throws Exception {
        InetAddress addr = InetAddress.getByName(args[1]);
        EmulatedDevice dev = Verbs.emulated().createUdp(DeviceConfig.of("jrxe-cli", addr));
        try (Arena arena = Arena.ofShared(); Socket sock = new Socket()) {
            Side s = new Side(dev, arena);
            sock.connect(new InetSocketAddress(args[2], Integer.parseInt(args[3])), 10_000);
            sock.setSoTimeout(30_000);
            BufferedReader in = new BufferedReader(new InputStreamReader(sock.getInputStream(), StandardCharsets.US_ASCII));
            PrintWriter out = new PrintWriter(sock.getOutputStream(), true, StandardCharsets.US_ASCII);
            Peer me = s.self(0x7777);
            out.println(me.line());
            Peer server = Peer.parse(in.readLine());
            s.connect(me, server);

            s.memory.setString(0, "hello over two JVMs");
            post(s, WrOpcode.SEND, 0, 20, server, 0);
            s.expect(WcStatus.SUCCESS, WcOpcode.SEND, "SEND");
            post(s, WrOpcode.SEND_WITH_IMM, 0, 8, server, 0).toString();
            s.expect(WcStatus.SUCCESS, WcOpcode.SEND, "SEND_WITH_IMM");
            s.memory.asSlice(100_000, 100).fill((byte) 0x77);
            post(s, WrOpcode.RDMA_WRITE, 100_000, 100, server, 300_000);
            s.expect(WcStatus.SUCCESS, WcOpcode.RDMA_WRITE, "RDMA_WRITE");
            post(s, WrOpcode.RDMA_WRITE_WITH_IMM, 100_000, 10, server, 400_000);
            s.expect(WcStatus.SUCCESS, WcOpcode.RDMA_WRITE, "RDMA_WRITE_WITH_IMM");
            post(s, WrOpcode.RDMA_READ, 200_000, 5000, server, 800_000);
            s.expect(WcStatus.SUCCESS, WcOpcode.RDMA_READ, "RDMA_READ");
            for (int i = 0; i < 5000; i++) {
                if (s.memory.get(ValueLayout.JAVA_BYTE, 200_000 + i) != (byte) (i * 13)) {
                    throw new IllegalStateException("RDMA_READ byte " + i + " differs");
                }
            }
            post(s, WrOpcode.ATOMIC_CMP_AND_SWP, 500_000, 8, server, 700_000);
            s.expect(WcStatus.SUCCESS, WcOpcode.COMP_SWAP, "ATOMIC_CMP_AND_SWP");
            if (s.memory.get(ValueLayout.JAVA_LONG, 500_000) != 10) {
                throw new IllegalStateException("CMP_AND_SWP returned " + s.memory.get(ValueLayout.JAVA_LONG, 500_000));
            }
            post(s, WrOpcode.ATOMIC_FETCH_AND_ADD, 500_008, 8, server, 700_000);
            s.expect(WcStatus.SUCCESS, WcOpcode.FETCH_ADD, "ATOMIC_FETCH_AND_ADD");
            if (s.memory.get(ValueLayout.JAVA_LONG, 500_008) != 110) {
                throw new IllegalStateException("FETCH_AND_ADD returned " + s.memory.get(ValueLayout.JAVA_LONG, 500_008));
            }
            for (int i = 0; i < 5000; i++) {
                s.memory.set(ValueLayout.JAVA_BYTE, 600_000 + i, (byte) (i * 7));
            }
            post(s, WrOpcode.SEND, 600_000, 5000, server, 0);
            s.expect(WcStatus.SUCCESS, WcOpcode.SEND, "multi-packet SEND");
            out.println("done");
            return true;
        } finally {
            Verbs.emulated().remove(dev);
        }
    }

    private static SendWr post(Side s, WrOpcode op, long localOffset, int length, Peer server, long remoteOffset)
            throws Exception {
        SendWr wr = new SendWr(1);
        wr.opcode = op;
        wr.flags = SendWr.SIGNALED;
        wr.sgl.add(s.memory.address() + localOffset, length, s.mr.lkey());
        wr.remoteAddr = server.addr() + remoteOffset;
        wr.rkey = server.rkey();
        wr.immData = op == WrOpcode.SEND_WITH_IMM ? 0x1234 : 0x42;
        wr.compareAdd = op == WrOpcode.ATOMIC_CMP_AND_SWP ? 10 : 1;
        wr.swap = 110;
        if (op == WrOpcode.ATOMIC_FETCH_AND_ADD) {
            wr.compareAdd = 1;
        }
        s.qp.postSend(wr);
        return wr;
    }
}
