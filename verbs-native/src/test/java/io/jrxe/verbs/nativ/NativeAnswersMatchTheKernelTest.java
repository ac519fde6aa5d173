package io.jrxe.verbs.nativ;

import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.Ah;
import io.jrxe.verbs.CompChannel;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Device;
import io.jrxe.verbs.DeviceAttributes;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.GidType;
import io.jrxe.verbs.MulticastGid;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Mw;
import io.jrxe.verbs.OdpCapabilities;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.PortInfo;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.Srq;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.cm.CmEventChannel;
import io.jrxe.verbs.cm.CmId;
import io.jrxe.verbs.cm.PortSpace;
import io.jrxe.verbs.cm.RdmaCm;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Method;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where the kernel has an RDMA device (rxe0, ...), the native provider's answer to every method of the verbs API is
 * asked of it and compared with the kernel's own (sysfs), with what the program gave (an MR's memory, an AH's
 * address vector), or with what the device then does (a SEND between two of its QPs arrives); a verb the device does
 * not offer must be refused with EOPNOTSUPP or ENOSYS and a message. Elsewhere (this machine, CI) the run is
 * skipped, saying so; what is checked everywhere is that there is a probe here for every method of the API, so a
 * method added to it cannot go unasked. The classes themselves are checked by {@link NativeAnswersTruthfullyTest}.
 */
class NativeAnswersMatchTheKernelTest {
    /** The CM's methods that need a peer to answer: checked against the lab guest's rxe0 by it-tests' NativeCmInteropTest. */
    private static final Set<String> ASKED_WITH_A_PEER = Set.of(
            "io.jrxe.verbs.cm.CmId.resolveAddr(InetSocketAddress,InetSocketAddress,int)",
            "io.jrxe.verbs.cm.CmId.resolveRoute(int)",
            "io.jrxe.verbs.cm.CmId.connect(ConnectionParameters)",
            "io.jrxe.verbs.cm.CmId.accept(ConnectionParameters)",
            "io.jrxe.verbs.cm.CmId.reject(byte[])",
            "io.jrxe.verbs.cm.CmId.disconnect()",
            "io.jrxe.verbs.cm.CmId.createQp(Pd,QpInitAttributes)",
            "io.jrxe.verbs.cm.CmId.destroyQp()");

    /** What a probe asks: one method of the API, of the live objects. */
    @FunctionalInterface
    private interface Probe {
        void ask(Live l) throws Exception;
    }

    /** A verb to run. */
    @FunctionalInterface
    private interface Action {
        void run() throws Exception;
    }

    /** A question to the live CM identifier. */
    @FunctionalInterface
    private interface OnId {
        void ask(CmId id) throws Exception;
    }

    /** The probes, in the order they run (the closing ones last), by {@link NativeAnswersTruthfullyTest#key}. */
    private static Map<String, Probe> probes() {
        Map<String, Probe> p = new LinkedHashMap<>();
        // Provider and Device: the kernel's list and its sysfs.
        p.put("io.jrxe.verbs.Provider.name()", l -> assertThat(l.provider.name()).isEqualTo("native"));
        p.put("io.jrxe.verbs.Provider.devices()", l -> assertThat(l.provider.devices()).extracting(Device::name)
                .isSubsetOf(sysfsDevices()).contains(l.device.name())); // a device without a user-space driver is left out
        p.put("io.jrxe.verbs.Provider.rdmaCm()", l -> assertThat(l.cm == null ? "refused" : l.cm.provider()).isIn("refused", "native"));
        p.put("io.jrxe.verbs.Device.name()", l -> assertThat(sysfsDevices()).contains(l.device.name()));
        p.put("io.jrxe.verbs.Device.guid()", l -> assertThat(l.device.guid())
                .isEqualTo(Long.parseUnsignedLong(l.sysfs("node_guid").replace(":", ""), 16)));
        p.put("io.jrxe.verbs.Device.provider()", l -> assertThat(l.device.provider()).isEqualTo("native"));
        p.put("io.jrxe.verbs.Device.open()", l -> {
            try (Context other = l.device.open()) {
                assertThat(other.device()).isSameAs(l.device);
            }
        });
        // Context: queries against sysfs.
        p.put("io.jrxe.verbs.Context.device()", l -> assertThat(l.ctx.device()).isSameAs(l.device));
        p.put("io.jrxe.verbs.Context.queryDevice()", l -> {
            DeviceAttributes a = l.ctx.queryDevice();
            assertThat(List.of(a.maxQp(), a.maxQpWr(), a.maxSge(), a.maxCq(), a.maxCqe(), a.maxMr(), a.maxPd()))
                    .as("the limits libibverbs reports for %s", l.device.name()).allMatch(v -> v > 0);
        });
        p.put("io.jrxe.verbs.Context.queryPort(int)", l -> {
            PortInfo port = l.ctx.queryPort(1);
            assertThat(port.state()).isEqualTo(l.sysfs("ports/1/state").replaceFirst("^\\d+: *", ""));
            assertThat(port.linkLayer()).isEqualTo(l.sysfs("ports/1/link_layer"));
            assertThat(port.gidTableLength()).isPositive();
        });
        p.put("io.jrxe.verbs.Context.queryGid(int,int)", l -> {
            GidEntry e = l.ctx.queryGid(1, l.gidIndex);
            assertThat(e.gid()).isEqualTo(l.sysfsGid(l.gidIndex));
            assertThat(l.sysfs("ports/1/gid_attrs/types/" + l.gidIndex)).isEqualTo("RoCE v2");
        });
        p.put("io.jrxe.verbs.Context.gidTable(int)", l -> {
            for (GidEntry e : l.ctx.gidTable(1)) {
                assertThat(e.gid()).as("GID %d", e.index()).isEqualTo(l.sysfsGid(e.index()));
                assertThat(l.sysfs("ports/1/gid_attrs/types/" + e.index())).as("GID %d's type", e.index())
                        .isEqualTo(e.type() == GidType.ROCE_V2 ? "RoCE v2" : "IB/RoCE v1");
            }
        });
        p.put("io.jrxe.verbs.Context.queryPkey(int,int)", l -> assertThat(l.ctx.queryPkey(1, 0))
                .isEqualTo(Integer.decode(l.sysfs("ports/1/pkeys/0"))));
        p.put("io.jrxe.verbs.Context.counters()", l -> {
            // Every counter is one of the port's hw_counters files, and every file that holds a number is a counter.
            Path dir = Path.of(l.sysfsPath, "ports/1/hw_counters");
            Set<String> numbers = new TreeSet<>();
            if (Files.isDirectory(dir)) {
                try (Stream<Path> s = Files.list(dir)) {
                    for (Path f : s.toList()) {
                        try {
                            Long.parseLong(Files.readString(f).strip());
                            numbers.add(f.getFileName().toString());
                        } catch (IOException | NumberFormatException e) {
                            // not a count
                        }
                    }
                }
            }
            assertThat(l.ctx.counters().keySet()).containsExactlyInAnyOrderElementsOf(numbers);
        });
        p.put("io.jrxe.verbs.Context.pollAsyncEvent()", l -> l.ctx.pollAsyncEvent());
        p.put("io.jrxe.verbs.Context.awaitAsyncEvent(long,TimeUnit)", l -> l.ctx.awaitAsyncEvent(10, TimeUnit.MILLISECONDS));
        p.put("io.jrxe.verbs.Context.allocPd()", l -> l.pd = l.keep(l.ctx.allocPd()));
        p.put("io.jrxe.verbs.Context.createCompChannel()", l -> l.channel = l.keep(l.ctx.createCompChannel()));
        p.put("io.jrxe.verbs.Context.createCq(int,CompChannel)", l -> {
            l.cq = l.keep(l.ctx.createCq(16, l.channel));
            assertThat(l.cq.capacity()).isGreaterThanOrEqualTo(16);
        });
        // Pd, and what it makes: each answers with what it was made with, or what the device gave.
        p.put("io.jrxe.verbs.Pd.regMr(MemorySegment,int)", l -> {
            l.mr = l.keep(l.pd.regMr(l.memory, ACCESS));
            assertThat(l.mr.iova()).isEqualTo(l.memory.address());
        });
        p.put("io.jrxe.verbs.Pd.regMr(MemorySegment,long,int)", l -> {
            try (Mr atIova = l.pd.regMr(l.memory.asSlice(4096, 4096), 0x10000, Access.LOCAL_WRITE)) {
                assertThat(atIova.iova()).isEqualTo(0x10000);
                assertThat(atIova.length()).isEqualTo(4096);
            }
        });
        p.put("io.jrxe.verbs.Pd.regMrImplicit(int)", l -> {
            if ((l.ctx.queryDevice().odpCapabilities().general() & OdpCapabilities.SUPPORT_IMPLICIT) == 0) {
                refused(() -> l.pd.regMrImplicit(Access.LOCAL_WRITE | Access.ON_DEMAND));
                return;
            }
            try (Mr implicit = l.pd.regMrImplicit(Access.LOCAL_WRITE | Access.ON_DEMAND)) {
                assertThat(implicit.iova()).isZero();
                assertThat(implicit.length()).as("SIZE_MAX").isEqualTo(-1);
            }
        });
        p.put("io.jrxe.verbs.Context.addressSpace()", l -> assertThat(l.ctx.addressSpace()).isNotNull());
        p.put("io.jrxe.verbs.AddressSpace.map(MemorySegment)", l -> l.ctx.addressSpace().map(l.memory));
        p.put("io.jrxe.verbs.AddressSpace.unmap(MemorySegment)", l -> l.ctx.addressSpace().unmap(l.memory));
        p.put("io.jrxe.verbs.Mr.lkey()", l -> assertThat(l.mr.lkey()).isNotZero());
        p.put("io.jrxe.verbs.Mr.rkey()", l -> assertThat(l.mr.rkey()).isNotZero());
        p.put("io.jrxe.verbs.Mr.iova()", l -> assertThat(l.mr.iova()).isEqualTo(l.memory.address()));
        p.put("io.jrxe.verbs.Mr.length()", l -> assertThat(l.mr.length()).isEqualTo(l.memory.byteSize()));
        p.put("io.jrxe.verbs.Mr.access()", l -> assertThat(l.mr.access()).isEqualTo(ACCESS));
        p.put("io.jrxe.verbs.Mr.memory()", l -> assertThat(l.mr.memory()).isEqualTo(l.memory));
        p.put("io.jrxe.verbs.Mr.rereg(Pd,MemorySegment,Integer)", l -> refusedOr(() -> {
            l.mr.rereg(null, null, ACCESS);
            assertThat(l.mr.access()).isEqualTo(ACCESS);
        }));
        p.put("io.jrxe.verbs.Mr.advisePrefetch(long,long,boolean,boolean)", l -> {
            if (!l.ctx.queryDevice().odpCapabilities().supported()) {
                refused(() -> l.mr.advisePrefetch(l.mr.iova(), 4096, false, true));
                return;
            }
            // rxe has ODP from Linux 6.15 and ibv_advise_mr from 6.17: between them the prefetch is refused.
            try (Mr odp = l.pd.regMr(l.memory.asSlice(12288, 8192), Access.LOCAL_WRITE | Access.ON_DEMAND)) {
                refusedOr(() -> odp.advisePrefetch(odp.iova(), 8192, true, true));
            }
        });
        p.put("io.jrxe.verbs.Mr.invalidate(long,long)", l -> refused(() -> l.mr.invalidate(l.mr.iova(), 4096)));
        p.put("io.jrxe.verbs.Pd.createQp(QpInitAttributes)", l -> {
            QpCapabilities caps = new QpCapabilities(8, 8, 1, 1, 0);
            l.qpA = l.keep(l.pd.createQp(new QpInitAttributes(QpType.RC, l.cq, l.cq, null, caps, false)));
            l.qpB = l.keep(l.pd.createQp(new QpInitAttributes(QpType.RC, l.cq, l.cq, null, caps, false)));
        });
        p.put("io.jrxe.verbs.Qp.qpNum()", l -> assertThat(l.qpA.qpNum()).isGreaterThan(1).isNotEqualTo(l.qpB.qpNum()));
        p.put("io.jrxe.verbs.Qp.type()", l -> assertThat(l.qpA.type()).isEqualTo(QpType.RC));
        p.put("io.jrxe.verbs.Qp.modify(QpAttributes)", l -> {
            connect(l, l.qpA, l.qpB);
            connect(l, l.qpB, l.qpA);
        });
        p.put("io.jrxe.verbs.Qp.query()", l -> {
            QpAttributes q = l.qpA.query();
            assertThat(q.state()).isEqualTo(QpState.RTS);
            assertThat(q.destQpn()).isEqualTo(l.qpB.qpNum());
        });
        p.put("io.jrxe.verbs.Qp.postRecv(RecvWr)", l -> l.qpB.postRecv(recv(1, l.mr, 8192)));
        p.put("io.jrxe.verbs.Qp.postSend(SendWr)", l -> {
            l.memory.asSlice(0, 64).fill((byte) 0x5a);
            l.qpA.postSend(send(2, l.mr, 64));
        });
        p.put("io.jrxe.verbs.Cq.poll(WorkCompletion[])", l -> {
            List<WorkCompletion> got = l.completions(2);
            assertThat(got).allMatch(wc -> wc.status() == WcStatus.SUCCESS, "succeeded");
            assertThat(got).extracting(WorkCompletion::opcode).containsExactlyInAnyOrder(WcOpcode.SEND, WcOpcode.RECV);
            assertThat(l.memory.get(JAVA_BYTE, 8192 + 63)).as("the SEND's last byte, received").isEqualTo((byte) 0x5a);
        });
        p.put("io.jrxe.verbs.Cq.requestNotify(boolean)", l -> l.cq.requestNotify(false));
        p.put("io.jrxe.verbs.CompChannel.awaitEvent(long,TimeUnit)", l -> {
            l.qpB.postRecv(recv(3, l.mr, 8192));
            l.qpA.postSend(send(4, l.mr, 8));
            assertThat(l.channel.awaitEvent(5, TimeUnit.SECONDS)).as("the armed CQ's event").isSameAs(l.cq);
            l.completions(2);
        });
        p.put("io.jrxe.verbs.Cq.poll(WorkCompletion[],long,TimeUnit)", l -> {
            WorkCompletion[] one = {new WorkCompletion()};
            assertThat(l.cq.poll(one, 10, TimeUnit.MILLISECONDS)).as("nothing posted").isZero();
            l.qpB.postRecv(recv(5, l.mr, 8192));
            l.qpA.postSend(send(6, l.mr, 8));
            int got = 0;
            for (int i = 0; i < 2; i++) {
                got += l.cq.poll(one, 5, TimeUnit.SECONDS);
            }
            assertThat(got).as("the SEND's and the receive's completions").isEqualTo(2);
        });
        p.put("io.jrxe.verbs.CompChannel.poll(Cq,WorkCompletion[],long,TimeUnit)", l -> {
            WorkCompletion[] one = {new WorkCompletion()};
            l.qpB.postRecv(recv(7, l.mr, 8192));
            l.qpA.postSend(send(8, l.mr, 8));
            int got = 0;
            for (int i = 0; i < 2; i++) {
                got += l.channel.poll(l.cq, one, 5, TimeUnit.SECONDS);
            }
            assertThat(got).as("both completions, each after its event").isEqualTo(2);
        });
        p.put("io.jrxe.verbs.Cq.capacity()", l -> assertThat(l.cq.capacity()).isGreaterThanOrEqualTo(16));
        p.put("io.jrxe.verbs.Cq.resize(int)", l -> refusedOr(() -> {
            l.cq.resize(64);
            assertThat(l.cq.capacity()).isGreaterThanOrEqualTo(64);
        }));
        p.put("io.jrxe.verbs.Qp.attachMcast(byte[],int)", l -> {
            QpCapabilities caps = new QpCapabilities(4, 4, 1, 1, 0);
            l.ud = l.keep(l.pd.createQp(new QpInitAttributes(QpType.UD, l.cq, l.cq, null, caps, false)));
            refusedOr(() -> {
                l.ud.attachMcast(MulticastGid.of(InetAddress.getByName(GROUP)), 0);
                l.attached = true;
            });
        });
        p.put("io.jrxe.verbs.Qp.detachMcast(byte[],int)", l -> {
            if (l.attached) {
                l.ud.detachMcast(MulticastGid.of(InetAddress.getByName(GROUP)), 0);
            }
        });
        p.put("io.jrxe.verbs.Pd.allocMw(int)", l -> refusedOr(() -> l.mw = l.keep(l.pd.allocMw(1))));
        p.put("io.jrxe.verbs.Mw.type()", l -> {
            if (l.mw != null) {
                assertThat(l.mw.type()).isEqualTo(1);
            }
        });
        p.put("io.jrxe.verbs.Mw.rkey()", l -> {
            if (l.mw != null) {
                l.mw.rkey(); // the kernel's, read from its struct ibv_mw: nothing here to compare it with
            }
        });
        p.put("io.jrxe.verbs.Mw.bind(Mr,long,long,int)", l -> {
            if (l.mw != null) {
                refused(() -> l.mw.bind(l.mr, l.memory.address(), 4096, Access.REMOTE_WRITE));
            }
        });
        p.put("io.jrxe.verbs.Pd.createSrq(int,int)", l -> refusedOr(() -> l.srq = l.keep(l.pd.createSrq(16, 1))));
        p.put("io.jrxe.verbs.Srq.maxWr()", l -> {
            if (l.srq != null) {
                assertThat(l.srq.maxWr()).isGreaterThanOrEqualTo(16);
            }
        });
        p.put("io.jrxe.verbs.Srq.maxSge()", l -> {
            if (l.srq != null) {
                assertThat(l.srq.maxSge()).isGreaterThanOrEqualTo(1);
            }
        });
        p.put("io.jrxe.verbs.Srq.postRecv(RecvWr)", l -> {
            if (l.srq != null) {
                l.srq.postRecv(recv(5, l.mr, 12288));
            }
        });
        p.put("io.jrxe.verbs.Srq.armLimit(int)", l -> {
            if (l.srq != null) {
                refusedOr(() -> l.srq.armLimit(1));
            }
        });
        p.put("io.jrxe.verbs.Pd.createAh(AddressVector)", l -> {
            l.av = AddressVector.to(l.gid, l.gidIndex);
            l.ah = l.keep(l.pd.createAh(l.av));
        });
        p.put("io.jrxe.verbs.Ah.av()", l -> assertThat(l.ah.av()).isSameAs(l.av));
        p.put("io.jrxe.verbs.Ah.handle()", l -> {
            // A UD SEND that names its destination by the handle arrives, with its GRH, at the QP it was sent to.
            QpCapabilities caps = new QpCapabilities(4, 4, 1, 1, 0);
            try (Qp from = l.pd.createQp(new QpInitAttributes(QpType.UD, l.cq, l.cq, null, caps, false));
                 Qp to = l.pd.createQp(new QpInitAttributes(QpType.UD, l.cq, l.cq, null, caps, false))) {
                for (Qp u : List.of(from, to)) {
                    u.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).qkey(QKEY));
                    u.modify(new QpAttributes().state(QpState.RTR));
                    u.modify(new QpAttributes().state(QpState.RTS).sqPsn(0));
                }
                RecvWr r = new RecvWr(1);
                r.wrId = 6;
                r.sgl.add(l.memory.address() + 16384, 40 + 64, l.mr.lkey());
                to.postRecv(r);
                SendWr w = send(7, l.mr, 64);
                w.ahHandle = l.ah.handle();
                w.remoteQpn = to.qpNum();
                w.remoteQkey = QKEY;
                from.postSend(w);
                WorkCompletion received = l.completions(2).stream().filter(wc -> wc.opcode() == WcOpcode.RECV)
                        .findFirst().orElseThrow();
                assertThat(received.status()).isEqualTo(WcStatus.SUCCESS);
                assertThat(received.srcQp()).isEqualTo(from.qpNum());
                assertThat(received.wcFlags() & WorkCompletion.WITH_GRH).isNotZero();
            }
        });
        // The CM, as far as it answers without a peer.
        p.put("io.jrxe.verbs.cm.RdmaCm.provider()", l -> {
            if (l.cm != null) {
                assertThat(l.cm.provider()).isEqualTo("native");
            }
        });
        p.put("io.jrxe.verbs.cm.RdmaCm.createEventChannel()", l -> {
            if (l.cm != null) {
                l.events = l.keep(l.cm.createEventChannel());
            }
        });
        p.put("io.jrxe.verbs.cm.CmEventChannel.createId(PortSpace,Object)", l -> {
            if (l.events != null) {
                l.id = l.keep(l.events.createId(PortSpace.TCP, l));
            }
        });
        p.put("io.jrxe.verbs.cm.CmEventChannel.pollEvent()", l -> {
            if (l.events != null) {
                assertThat(l.events.pollEvent()).isNull();
            }
        });
        p.put("io.jrxe.verbs.cm.CmEventChannel.getEvent(long,TimeUnit)", l -> {
            if (l.events != null) {
                assertThat(l.events.getEvent(10, TimeUnit.MILLISECONDS)).isNull();
            }
        });
        p.put("io.jrxe.verbs.cm.CmId.portSpace()", l -> l.ifId(id -> assertThat(id.portSpace()).isEqualTo(PortSpace.TCP)));
        p.put("io.jrxe.verbs.cm.CmId.userContext()", l -> l.ifId(id -> assertThat(id.userContext()).isSameAs(l)));
        p.put("io.jrxe.verbs.cm.CmId.channel()", l -> l.ifId(id -> assertThat(id.channel()).isSameAs(l.events)));
        p.put("io.jrxe.verbs.cm.CmId.qp()", l -> l.ifId(id -> assertThat(id.qp()).isNull()));
        p.put("io.jrxe.verbs.cm.CmId.pd()", l -> l.ifId(id -> assertThat(id.pd()).isNull()));
        p.put("io.jrxe.verbs.cm.CmId.bindAddr(InetSocketAddress)", l -> l.ifId(id -> {
            if (GidEntry.isIpv4Mapped(l.gid)) {
                id.bindAddr(new InetSocketAddress(InetAddress.getByAddress(java.util.Arrays.copyOfRange(l.gid, 12, 16)), 0));
            }
        }));
        p.put("io.jrxe.verbs.cm.CmId.context()", l -> l.ifBound(id -> assertThat(id.context().device().name())
                .isEqualTo(l.device.name())));
        p.put("io.jrxe.verbs.cm.CmId.portNum()", l -> l.ifBound(id -> assertThat(id.portNum()).isEqualTo(1)));
        p.put("io.jrxe.verbs.cm.CmId.localAddress()", l -> l.ifBound(id -> assertThat(id.localAddress().getAddress().getAddress())
                .isEqualTo(java.util.Arrays.copyOfRange(l.gid, 12, 16))));
        p.put("io.jrxe.verbs.cm.CmId.remoteAddress()", l -> l.ifBound(id -> {
            InetSocketAddress remote = id.remoteAddress();
            assertThat(remote == null || remote.getAddress().isAnyLocalAddress()).as("no peer yet: %s", remote).isTrue();
        }));
        p.put("io.jrxe.verbs.cm.CmId.listen(int)", l -> l.ifBound(id -> id.listen(1)));
        // Closing, in the reverse order of making (each object once: a second close would free freed memory).
        p.put("io.jrxe.verbs.cm.CmId.close()", l -> l.close(l.id));
        p.put("io.jrxe.verbs.cm.CmEventChannel.close()", l -> l.close(l.events));
        p.put("io.jrxe.verbs.Ah.close()", l -> l.close(l.ah));
        p.put("io.jrxe.verbs.Srq.close()", l -> l.close(l.srq));
        p.put("io.jrxe.verbs.Mw.close()", l -> l.close(l.mw));
        p.put("io.jrxe.verbs.Qp.close()", l -> {
            l.close(l.ud);
            l.close(l.qpB);
            l.close(l.qpA);
        });
        p.put("io.jrxe.verbs.Mr.close()", l -> l.close(l.mr));
        p.put("io.jrxe.verbs.Cq.close()", l -> l.close(l.cq));
        p.put("io.jrxe.verbs.CompChannel.close()", l -> l.close(l.channel));
        p.put("io.jrxe.verbs.Pd.close()", l -> l.close(l.pd));
        p.put("io.jrxe.verbs.Context.close()", l -> l.close(l.ctx));
        return p;
    }

    private static final int ACCESS = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ;
    private static final int QKEY = 0x11111111;
    private static final String GROUP = "239.192.7.8";

    @Test
    void everyMethodOfTheApiHasAProbe() throws Exception {
        Set<String> api = new TreeSet<>();
        for (Class<?> c : NativeAnswersTruthfullyTest.apiInterfaces()) {
            for (Method m : NativeAnswersTruthfullyTest.apiMethods(c)) {
                api.add(NativeAnswersTruthfullyTest.key(m));
            }
        }
        Set<String> asked = new TreeSet<>(probes().keySet());
        asked.addAll(ASKED_WITH_A_PEER);
        Set<String> unasked = new TreeSet<>(api);
        unasked.removeAll(asked);
        Set<String> unknown = new TreeSet<>(asked);
        unknown.removeAll(api);
        assertThat(unasked).as("API methods no probe asks of a kernel device").isEmpty();
        assertThat(unknown).as("probes of methods the API does not have").isEmpty();
    }

    @Test
    void aKernelDevicesAnswersAreTheKernels() throws Exception {
        NativeHost.assumeLibibverbs();
        NativeProvider provider = new NativeProvider();
        List<Device> devices = provider.devices();
        if (devices.isEmpty()) {
            String reason = "no kernel RDMA device: " + provider.whyNoDevices().orElse("none listed");
            System.err.println("SKIPPED: " + reason);
            Assumptions.abort(reason);
        }
        Device device = devices.stream().filter(d -> d.name().equals("rxe0")).findFirst().orElse(devices.getFirst());
        List<String> failures = new ArrayList<>();
        try (Live l = new Live(provider, device)) {
            for (Map.Entry<String, Probe> probe : probes().entrySet()) {
                try {
                    probe.getValue().ask(l);
                } catch (Exception | AssertionError e) {
                    failures.add(probe.getKey() + " on " + device.name() + ": " + e);
                }
            }
        }
        assertThat(failures).isEmpty();
    }

    /** Runs a verb the device may not offer: it does its work, or it is refused with EOPNOTSUPP or ENOSYS. */
    private static void refusedOr(Action action) throws Exception {
        try {
            action.run();
        } catch (VerbsException e) {
            assertRefusal(e);
        }
    }

    /** Runs a verb the provider cannot offer: it must be refused with EOPNOTSUPP or ENOSYS. */
    private static void refused(Action action) throws Exception {
        try {
            action.run();
        } catch (VerbsException e) {
            assertRefusal(e);
            return;
        }
        throw new AssertionError("not refused");
    }

    private static void assertRefusal(VerbsException e) {
        assertThat(e.errno()).as("%s", e.getMessage()).isIn(Errno.EOPNOTSUPP, Errno.ENOSYS);
        assertThat(e.getMessage()).isNotBlank();
    }

    /** A signaled SEND of the first {@code length} bytes of {@code mr}. */
    private static SendWr send(long wrId, Mr mr, int length) {
        SendWr w = new SendWr(1);
        w.wrId = wrId;
        w.opcode = WrOpcode.SEND;
        w.flags = SendWr.SIGNALED;
        w.sgl.add(mr.memory().address(), length, mr.lkey());
        return w;
    }

    /** A receive of 64 bytes into {@code mr} at {@code offset}. */
    private static RecvWr recv(long wrId, Mr mr, long offset) {
        RecvWr r = new RecvWr(1);
        r.wrId = wrId;
        r.sgl.add(mr.memory().address() + offset, 64, mr.lkey());
        return r;
    }

    /** RESET -> INIT -> RTR -> RTS towards {@code peer}, a QP of the same device, at its own RoCE v2 GID. */
    private static void connect(Live l, Qp qp, Qp peer) throws VerbsException {
        qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(Access.REMOTE_WRITE));
        qp.modify(new QpAttributes().state(QpState.RTR).pathMtu(l.ctx.queryPort(1).activeMtu()).destQpn(peer.qpNum())
                .rqPsn(0x100).maxDestRdAtomic(1).minRnrTimer(12).av(AddressVector.to(l.gid, l.gidIndex)));
        qp.modify(new QpAttributes().state(QpState.RTS).sqPsn(0x100).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(1));
    }

    private static Set<String> sysfsDevices() throws IOException {
        try (Stream<Path> s = Files.list(Path.of("/sys/class/infiniband"))) {
            return new TreeSet<>(s.map(f -> f.getFileName().toString()).toList());
        }
    }

    /** The objects the probes ask, made as they go; closing closes what is still open. */
    private static final class Live implements AutoCloseable {
        final NativeProvider provider;
        final Device device;
        final String sysfsPath;
        final Context ctx;
        final RdmaCm cm;
        final byte[] gid;
        final int gidIndex;
        final Arena arena = Arena.ofShared();
        final MemorySegment memory = arena.allocate(64 * 1024, 4096);
        private final List<AutoCloseable> made = new ArrayList<>();
        Pd pd;
        CompChannel channel;
        Cq cq;
        Mr mr;
        Qp qpA;
        Qp qpB;
        Qp ud;
        boolean attached;
        Mw mw;
        Srq srq;
        AddressVector av;
        Ah ah;
        CmEventChannel events;
        CmId id;

        Live(NativeProvider provider, Device device) throws VerbsException {
            this.provider = provider;
            this.device = device;
            this.sysfsPath = ((NativeDevice) device).sysfsPath();
            this.ctx = keep(device.open());
            RdmaCm found;
            try {
                found = provider.rdmaCm();
            } catch (VerbsException e) {
                assertRefusal(e);
                found = null;
            }
            this.cm = found;
            GidEntry roceV2 = null;
            for (GidEntry e : ctx.gidTable(1)) {
                if (e.type() == GidType.ROCE_V2 && (roceV2 == null || GidEntry.isIpv4Mapped(e.gid()))) {
                    roceV2 = e;
                }
            }
            assertThat(roceV2).as("a RoCE v2 GID of %s", device.name()).isNotNull();
            this.gid = roceV2.gid();
            this.gidIndex = roceV2.index();
        }

        <T extends AutoCloseable> T keep(T resource) {
            made.add(resource);
            return resource;
        }

        /** Closes one object a probe made (null: none was), which {@link #close()} then leaves alone. */
        void close(AutoCloseable resource) throws Exception {
            if (resource != null) {
                made.remove(resource);
                resource.close();
            }
        }

        String sysfs(String file) throws IOException {
            return Files.readString(Path.of(sysfsPath, file)).strip();
        }

        /** GID {@code index} of port 1 as sysfs gives it (eight groups of four hex digits). */
        byte[] sysfsGid(int index) throws IOException {
            return HexFormat.of().parseHex(sysfs("ports/1/gids/" + index).replace(":", ""));
        }

        /** The next {@code n} completions of the CQ, within five seconds. */
        List<WorkCompletion> completions(int n) {
            List<WorkCompletion> got = new ArrayList<>();
            WorkCompletion[] one = {new WorkCompletion()};
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (got.size() < n) {
                if (cq.poll(one) == 1) {
                    got.add(new WorkCompletion(one[0]));
                } else if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError(got.size() + " of " + n + " completions within 5 s: " + got);
                } else {
                    Thread.onSpinWait();
                }
            }
            return got;
        }

        void ifId(OnId check) throws Exception {
            if (id != null) {
                check.ask(id);
            }
        }

        void ifBound(OnId check) throws Exception {
            if (id != null && id.context() != null) {
                check.ask(id);
            }
        }

        @Override
        public void close() {
            for (int i = made.size() - 1; i >= 0; i--) {
                try {
                    made.get(i).close();
                } catch (Exception e) {
                    // left open by a probe that failed, which is reported; this only tidies up
                }
            }
            arena.close();
        }
    }
}
