package io.jrxe.it.interop;

import io.jrxe.verbs.DeviceAttributes;
import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.GidType;
import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.Ah;
import io.jrxe.verbs.CompChannel;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Device;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Mw;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.PortInfo;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.Srq;
import io.jrxe.verbs.facade.Verbs;
import io.jrxe.verbs.nativ.NativeMw;
import io.jrxe.verbs.nativ.NativeProvider;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.jrxe.it.interop.SmokeQueues.complete;
import static io.jrxe.it.interop.SmokeQueues.recv;
import static io.jrxe.it.interop.SmokeQueues.send;
import static io.jrxe.it.interop.SmokeReport.expect;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Every verb of the native provider against one kernel device, each step printed OK or FAIL:
 * meant for the lab guest that has rxe0, run from the repository (after a build) as
 * {@code java --enable-native-access=ALL-UNNAMED -cp 'it-tests/target/test-classes:tools/target/jrxe-tools.jar:tools/target/lib/*'
 * io.jrxe.it.interop.NativeSmoke rxe0}, as KernelRxeInteropTest does.
 * Two RC QPs of the device talk to each other through its own GID (rxe loops such packets
 * back), then an SRQ pair and a UD pair. Exit status 0 when every step passed, 1 when one
 * failed, 2 when there is no device to try.
 */
public final class NativeSmoke {
    private static final int BUFFER = 64 * 1024;
    private final SmokeReport report;
    private final Deque<AutoCloseable> resources = new ArrayDeque<>();
    private final Arena arena = Arena.ofShared();
    private final String deviceName;
    private Context ctx;
    private Pd pd;
    private byte[] gid;
    private int gidIndex;
    private Mtu mtu;
    private Mr mrA;
    private Mr mrB;
    private Cq cqA;
    private Cq cqB;
    private Qp qpA;
    private Qp qpB;
    private CompChannel channel;

    NativeSmoke(String deviceName, PrintStream out) {
        this.deviceName = deviceName;
        this.report = new SmokeReport(out);
    }

    public static void main(String[] args) {
        if (args.length > 1 || args.length == 1 && args[0].startsWith("-")) {
            System.err.println("usage: NativeSmoke [DEVICE]   (default rxe0)");
            System.exit(2);
        }
        System.exit(new NativeSmoke(args.length == 1 ? args[0] : "rxe0", System.out).run());
    }

    /** Runs every step; the exit status. */
    int run() {
        Device device = report.step("find native device " + deviceName, () -> {
            List<io.jrxe.verbs.Device> all = Verbs.nativeProvider().devices();
            if (all.isEmpty()) {
                throw new IllegalStateException(Verbs.nativeProvider().whyNoDevices().orElse("no RDMA devices"));
            }
            return Verbs.device(NativeProvider.NAME, deviceName);
        });
        if (device == null) {
            report.summary();
            return 2;
        }
        ctx = report.step("ibv_open_device", () -> keep(device.open()));
        if (ctx != null) {
            queries();
            if (resources() && connected()) {
                traffic();
                windows();
                notifications();
                sharedReceiveQueue();
                unreliableDatagram();
            }
            report.step("async events (none expected)", () -> String.valueOf(ctx.pollAsyncEvent()));
            report.step("hw_counters", () -> {
                Map<String, Long> c = ctx.counters();
                return c.isEmpty() ? "none in sysfs" : "sent_pkts=" + c.get("sent_pkts") + " rcvd_pkts=" + c.get("rcvd_pkts");
            });
        }
        teardown();
        report.summary();
        return report.failed() == 0 ? 0 : 1;
    }

    private <T extends AutoCloseable> T keep(T resource) {
        resources.push(resource);
        return resource;
    }

    private void queries() {
        report.step("ibv_query_device", () -> {
            DeviceAttributes a = ctx.queryDevice();
            return "fw " + a.firmwareVersion() + ", max_qp " + a.maxQp() + ", max_mr_size 0x" + Long.toHexString(a.maxMrSize());
        });
        PortInfo port = report.step("ibv_query_port 1", () -> ctx.queryPort(1));
        mtu = port == null ? Mtu.MTU_1024 : port.activeMtu();
        report.step("GID table", () -> {
            List<GidEntry> table = ctx.gidTable(1);
            for (GidEntry e : table) {
                if (e.type() == GidType.ROCE_V2 && (gid == null || GidEntry.isIpv4Mapped(e.gid()))) {
                    gid = e.gid();
                    gidIndex = e.index();
                }
            }
            expect(gid != null, "no RoCE v2 GID in " + table);
            return table.size() + " entries; using " + ctx.queryGid(1, gidIndex);
        });
        report.step("ibv_query_pkey 0", () -> String.format("0x%04x", ctx.queryPkey(1, 0)));
    }

    private boolean resources() {
        pd = report.step("ibv_alloc_pd", () -> keep(ctx.allocPd()));
        MemorySegment a = arena.allocate(BUFFER, 4096);
        MemorySegment b = arena.allocate(BUFFER, 4096);
        mrA = report.step("ibv_reg_mr A", () -> keep(pd.regMr(a, SmokeQueues.ACCESS)));
        mrB = report.step("ibv_reg_mr B", () -> keep(pd.regMr(b, SmokeQueues.ACCESS)));
        report.step("ibv_rereg_mr (access)", () -> {
            try {
                mrB.rereg(null, null, SmokeQueues.ACCESS);
            } catch (io.jrxe.verbs.VerbsException e) {
                // Debian 12's kernel (6.1) rxe has no rereg_user_mr: the provider passes its answer on, as it should.
                expect(e.errno() == io.jrxe.verbs.Errno.EOPNOTSUPP, e.getMessage());
                return "not supported by this kernel's driver (" + e.getMessage() + ")";
            }
            return String.format("lkey 0x%08x rkey 0x%08x", mrB.lkey(), mrB.rkey());
        });
        channel = report.step("ibv_create_comp_channel", () -> keep(ctx.createCompChannel()));
        cqA = report.step("ibv_create_cq A (with channel)", () -> keep(ctx.createCq(64, channel)));
        cqB = report.step("ibv_create_cq B", () -> keep(ctx.createCq(32, null)));
        report.step("ibv_resize_cq B", () -> {
            cqB.resize(128);
            expect(cqB.capacity() >= 128, "capacity " + cqB.capacity());
            return "capacity " + cqB.capacity();
        });
        QpCapabilities caps = new QpCapabilities(32, 32, 2, 2, 64);
        qpA = report.step("ibv_create_qp RC A", () -> keep(pd.createQp(new QpInitAttributes(QpType.RC, cqA, cqA, null, caps, false))));
        qpB = report.step("ibv_create_qp RC B", () -> keep(pd.createQp(new QpInitAttributes(QpType.RC, cqB, cqB, null, caps, false))));
        return pd != null && mrA != null && mrB != null && cqA != null && cqB != null && qpA != null && qpB != null
                && gid != null;
    }

    private boolean connected() {
        return report.step("ibv_modify_qp RESET->INIT->RTR->RTS, ibv_query_qp", () -> {
            SmokeQueues.connect(qpA, qpB.qpNum(), gid, gidIndex, mtu);
            SmokeQueues.connect(qpB, qpA.qpNum(), gid, gidIndex, mtu);
            QpAttributes q = qpA.query();
            expect(q.state() == QpState.RTS && q.destQpn() == qpB.qpNum(), "query says " + q.state() + " to " + q.destQpn());
            return String.format("QP 0x%06x <-> QP 0x%06x, path MTU %d", qpA.qpNum(), qpB.qpNum(), q.pathMtu().bytes());
        }) != null;
    }

    private void traffic() {
        MemorySegment a = mrA.memory();
        MemorySegment b = mrB.memory();
        report.step("SEND / RECV", () -> {
            a.asSlice(0, 64).fill((byte) 0x5a);
            qpB.postRecv(recv(1, mrB, 0, 64));
            qpA.postSend(send(WrOpcode.SEND, 2, mrA, 0, 64));
            complete(cqA, 2);
            WorkCompletion r = complete(cqB, 1);
            expect(r.opcode() == WcOpcode.RECV && r.byteLen() == 64 && b.get(JAVA_BYTE, 63) == 0x5a, "received " + r);
            return "";
        });
        report.step("SEND_WITH_IMM", () -> {
            qpB.postRecv(recv(3, mrB, 0, 64));
            SendWr w = send(WrOpcode.SEND_WITH_IMM, 4, mrA, 0, 16);
            w.immData = 0x11223344;
            qpA.postSend(w);
            complete(cqA, 4);
            WorkCompletion r = complete(cqB, 3);
            expect(r.hasImmediate() && r.immData() == 0x11223344, "received " + r);
            return "";
        });
        report.step("RDMA_WRITE", () -> {
            a.asSlice(4096, 256).fill((byte) 0x33);
            qpA.postSend(rdma(WrOpcode.RDMA_WRITE, 5, 4096, 256, mrB.rkey(), b.address() + 4096));
            complete(cqA, 5);
            expect(b.get(JAVA_BYTE, 4096 + 255) == 0x33, "B's memory was not written");
            return "";
        });
        report.step("RDMA_WRITE_WITH_IMM", () -> {
            qpB.postRecv(recv(6, mrB, 0, 64));
            SendWr w = rdma(WrOpcode.RDMA_WRITE_WITH_IMM, 7, 4096, 16, mrB.rkey(), b.address() + 8192);
            w.immData = 0x55667788;
            qpA.postSend(w);
            complete(cqA, 7);
            WorkCompletion r = complete(cqB, 6);
            expect(r.opcode() == WcOpcode.RECV_RDMA_WITH_IMM && r.immData() == 0x55667788, "received " + r);
            return "";
        });
        report.step("RDMA_READ", () -> {
            b.asSlice(12288, 128).fill((byte) 0x44);
            qpA.postSend(rdma(WrOpcode.RDMA_READ, 8, 12288, 128, mrB.rkey(), b.address() + 12288));
            complete(cqA, 8);
            expect(a.get(JAVA_BYTE, 12288 + 127) == 0x44, "A's memory did not get B's bytes");
            return "";
        });
        report.step("ATOMIC_CMP_AND_SWP and ATOMIC_FETCH_AND_ADD", () -> {
            b.set(JAVA_LONG, 16384, 7L);
            SendWr cas = rdma(WrOpcode.ATOMIC_CMP_AND_SWP, 9, 16384, 8, mrB.rkey(), b.address() + 16384);
            cas.compareAdd = 7;
            cas.swap = 100;
            qpA.postSend(cas);
            complete(cqA, 9);
            SendWr faa = rdma(WrOpcode.ATOMIC_FETCH_AND_ADD, 10, 16392, 8, mrB.rkey(), b.address() + 16384);
            faa.compareAdd = 5;
            qpA.postSend(faa);
            complete(cqA, 10);
            expect(a.get(JAVA_LONG, 16384) == 7 && a.get(JAVA_LONG, 16392) == 100 && b.get(JAVA_LONG, 16384) == 105,
                    "old values " + a.get(JAVA_LONG, 16384) + ", " + a.get(JAVA_LONG, 16392) + "; now " + b.get(JAVA_LONG, 16384));
            return "";
        });
        report.step("SEND with INLINE data", () -> {
            qpB.postRecv(recv(11, mrB, 20480, 64));
            SendWr w = new SendWr(1);
            w.wrId = 12;
            w.opcode = WrOpcode.SEND;
            w.flags = SendWr.SIGNALED | SendWr.INLINE;
            w.inlineData = "inline bytes from jrxe".getBytes();
            w.inlineLength = w.inlineData.length;
            qpA.postSend(w);
            complete(cqA, 12);
            WorkCompletion r = complete(cqB, 11);
            expect(r.byteLen() == w.inlineLength && b.get(JAVA_BYTE, 20480) == 'i', "received " + r);
            return "";
        });
        report.step("a chain of 40 WRITEs (longer than one native batch)", () -> {
            SendWr first = null;
            for (int i = 39; i >= 0; i--) {
                SendWr w = rdma(WrOpcode.RDMA_WRITE, 100 + i, 4096, 64, mrB.rkey(), b.address() + 24576 + 64L * i);
                w.flags = i == 39 ? SendWr.SIGNALED : 0;
                first = w.next(first);
            }
            qpA.postSend(first);
            complete(cqA, 139);
            return "";
        });
        report.step("a bad WR in a chain is named (bad_wr)", () -> {
            SendWr good = send(WrOpcode.RDMA_WRITE, 13, mrA, 0, 8);
            good.remoteAddr = b.address();
            good.rkey = mrB.rkey();
            SendWr bad = new SendWr(1);
            bad.opcode = WrOpcode.FLUSH;
            try {
                qpA.postSend(good.next(bad));
            } catch (io.jrxe.verbs.VerbsException e) {
                complete(cqA, 13);
                expect(e.getMessage().startsWith("work request 1 of the chain"), e.getMessage());
                return e.getMessage();
            }
            throw new AssertionError("the chain was posted whole");
        });
    }

    private SendWr rdma(WrOpcode op, long wrId, long localOffset, int length, int rkey, long remote) {
        SendWr w = send(op, wrId, mrA, localOffset, length);
        w.rkey = rkey;
        w.remoteAddr = remote;
        return w;
    }

    private void windows() {
        MemorySegment b = mrB.memory();
        report.step("memory window type 1: ibv_alloc_mw, ibv_bind_mw, WRITE through it", () -> {
            NativeMw mw = (NativeMw) keep(pd.allocMw(1));
            int rkey = mw.bind(qpB, mrB, b.address() + 32768, 4096, Access.REMOTE_WRITE, 20, SendWr.SIGNALED);
            complete(cqB, 20);
            mrA.memory().asSlice(0, 32).fill((byte) 0x61);
            qpA.postSend(rdma(WrOpcode.RDMA_WRITE, 21, 0, 32, rkey, b.address() + 32768));
            complete(cqA, 21);
            expect(b.get(JAVA_BYTE, 32768 + 31) == 0x61, "the window's memory was not written");
            return String.format("rkey 0x%08x", rkey);
        });
        report.step("memory window type 2: BIND_MW work request, WRITE, LOCAL_INV", () -> {
            Mw mw = keep(pd.allocMw(2));
            int newRkey = (mw.rkey() & ~0xFF) | ((mw.rkey() + 1) & 0xFF); // ibv_inc_rkey
            SendWr bind = new SendWr(1);
            bind.wrId = 22;
            bind.opcode = WrOpcode.BIND_MW;
            bind.flags = SendWr.SIGNALED;
            bind.mwRkey = mw.rkey();
            bind.newRkey = newRkey;
            bind.mrLkey = mrB.lkey();
            bind.bindAddr = b.address() + 36864;
            bind.bindLength = 4096;
            bind.bindAccess = Access.REMOTE_WRITE;
            qpB.postSend(bind);
            complete(cqB, 22);
            qpA.postSend(rdma(WrOpcode.RDMA_WRITE, 23, 0, 32, newRkey, b.address() + 36864));
            complete(cqA, 23);
            expect(b.get(JAVA_BYTE, 36864) == 0x61, "the window's memory was not written");
            SendWr inv = new SendWr(1);
            inv.wrId = 24;
            inv.opcode = WrOpcode.LOCAL_INV;
            inv.flags = SendWr.SIGNALED;
            inv.invalidateRkey = newRkey;
            qpB.postSend(inv);
            complete(cqB, 24);
            return String.format("rkey 0x%08x", newRkey);
        });
    }

    private void notifications() {
        report.step("ibv_req_notify_cq, ibv_get_cq_event", () -> {
            cqA.requestNotify(false);
            qpA.postSend(rdma(WrOpcode.RDMA_WRITE, 30, 0, 8, mrB.rkey(), mrB.memory().address()));
            Cq which = channel.awaitEvent(5, TimeUnit.SECONDS);
            expect(which == cqA, "the channel said " + which);
            complete(cqA, 30);
            return "";
        });
    }

    private void sharedReceiveQueue() {
        report.step("SRQ: ibv_create_srq, ibv_modify_srq (limit), ibv_post_srq_recv, a SEND into it", () -> {
            Srq srq = keep(pd.createSrq(16, 1));
            srq.postRecv(recv(40, mrB, 40960, 64));
            srq.postRecv(recv(41, mrB, 41024, 64));
            srq.armLimit(1);
            QpCapabilities caps = new QpCapabilities(8, 0, 1, 1, 0);
            Qp c = keep(pd.createQp(new QpInitAttributes(QpType.RC, cqA, cqA, null, caps, false)));
            Qp d = keep(pd.createQp(new QpInitAttributes(QpType.RC, cqB, cqB, srq, caps, false)));
            SmokeQueues.connect(c, d.qpNum(), gid, gidIndex, mtu);
            SmokeQueues.connect(d, c.qpNum(), gid, gidIndex, mtu);
            c.postSend(send(WrOpcode.SEND, 42, mrA, 0, 32));
            complete(cqA, 42);
            WorkCompletion r = complete(cqB, 40);
            expect(r.qpNum() == d.qpNum(), "completed on QP " + r.qpNum());
            return "SRQ max_wr " + srq.maxWr() + ", then the limit event: " + ctx.awaitAsyncEvent(1, TimeUnit.SECONDS);
        });
    }

    private void unreliableDatagram() {
        report.step("UD: two QPs, ibv_create_ah, a SEND with its GRH", () -> {
            QpCapabilities caps = new QpCapabilities(8, 8, 1, 1, 0);
            Qp u1 = keep(pd.createQp(new QpInitAttributes(QpType.UD, cqA, cqA, null, caps, false)));
            Qp u2 = keep(pd.createQp(new QpInitAttributes(QpType.UD, cqB, cqB, null, caps, false)));
            int qkey = 0x11111111;
            for (Qp u : List.of(u1, u2)) {
                u.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).qkey(qkey));
                u.modify(new QpAttributes().state(QpState.RTR));
                u.modify(new QpAttributes().state(QpState.RTS).sqPsn(0));
            }
            Ah ah = keep(pd.createAh(AddressVector.to(gid, gidIndex)));
            u2.postRecv(recv(50, mrB, 49152, 40 + 64));
            SendWr w = send(WrOpcode.SEND, 51, mrA, 0, 64);
            w.ahHandle = ah.handle();
            w.remoteQpn = u2.qpNum();
            w.remoteQkey = qkey;
            u1.postSend(w);
            complete(cqA, 51);
            WorkCompletion r = complete(cqB, 50);
            expect(r.byteLen() == 40 + 64 && (r.wcFlags() & WorkCompletion.WITH_GRH) != 0 && r.srcQp() == u1.qpNum(),
                    "received " + r);
            return "";
        });
    }

    private void teardown() {
        report.step("destroy everything (QPs, SRQ, AH, MWs, CQs, channel, MRs, PD, context)", () -> {
            StringBuilder failures = new StringBuilder();
            while (!resources.isEmpty()) {
                AutoCloseable r = resources.pop();
                try {
                    r.close();
                } catch (Exception e) {
                    failures.append(r).append(": ").append(e.getMessage()).append("; ");
                }
            }
            arena.close();
            expect(failures.isEmpty(), failures.toString());
            return "";
        });
    }
}
