package io.jrxe.verbs.udp;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.memory.OdpSettings;
import io.jrxe.rnic.memory.RemoteFaultPolicy;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpConnect;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpPeer;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.verbs.facade.Verbs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On-demand paging on real UDP, where the NIC runs on its own thread: the RNR_NAK policy's pages arrive through the
 * event loop's timers while the requester waits out its RNR timer, and a prefetch and an invalidation run as commands
 * on the NIC's thread.
 */
class OdpOnUdpTest {
    private static final int PAGE = 4096;

    private final Arena arena = Arena.ofShared();
    private final List<EmulatedDevice> devices = new ArrayList<>();

    /** One device with a PD, a CQ, an RC QP and 16 pages registered ON_DEMAND. */
    private final class Side {
        final Context ctx;
        final Pd pd;
        final Cq cq;
        final Qp qp;
        final MemorySegment memory = arena.allocate(16 * PAGE, PAGE);
        final Mr mr;

        Side(String name, String address) throws Exception {
            EmulatedDevice device = Verbs.emulated().createUdp(DeviceConfig.of(name, InetAddress.getByName(address))
                    .withOdp(OdpSettings.RXE.withRemoteFaults(RemoteFaultPolicy.RNR_NAK)));
            devices.add(device);
            ctx = device.open();
            pd = ctx.allocPd();
            cq = ctx.createCq(64, null);
            qp = pd.createQp(new QpInitAttributes(QpType.RC, cq, cq, null, new QpCapabilities(16, 16, 1, 1, 0), false));
            mr = pd.regMr(memory, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.ON_DEMAND);
        }

        long counter(String name) throws VerbsException {
            Long v = ctx.counters().get(name);
            return v == null ? 0 : v;
        }
    }

    @AfterEach
    void close() {
        devices.forEach(EmulatedDevice::close);
        arena.close();
    }

    @Test
    void writesIntoOdpPagesOnRealUdpFaultRnrNakAndComplete() throws Exception {
        Side a = new Side("odp-udp-a", "127.0.71.1");
        Side b = new Side("odp-udp-b", "127.0.71.2");
        QpConnect.to(new QpPeer(b.qp.qpNum(), 0, b.ctx.queryGid(1, 1).gid())).minRnrTimer(1).apply(a.qp);
        QpConnect.to(new QpPeer(a.qp.qpNum(), 0, a.ctx.queryGid(1, 1).gid())).accessFlags(Access.REMOTE_WRITE)
                .minRnrTimer(1).apply(b.qp);

        write(a, b, 0, 2 * PAGE, 1);
        assertThat(b.counter("jrxe_odp_page_faults")).isEqualTo(2);
        long naks = b.counter("jrxe_odp_rnr_naks");
        assertThat(naks).as("the first try was NAKed").isPositive();
        assertThat(a.counter("rcvd_rnr_err")).isEqualTo(naks);

        b.mr.advisePrefetch(b.memory.address() + 4 * PAGE, 2 * PAGE, true, true);
        write(a, b, 4 * PAGE, 2 * PAGE, 2);
        assertThat(b.counter("jrxe_odp_prefetched_pages")).isEqualTo(2);
        assertThat(b.counter("jrxe_odp_page_faults")).isEqualTo(2);
        assertThat(b.counter("jrxe_odp_rnr_naks")).as("prefetched pages are there").isEqualTo(naks);

        b.mr.invalidate(b.memory.address(), PAGE);
        write(a, b, 0, PAGE, 3);
        assertThat(b.counter("jrxe_odp_invalidations")).isEqualTo(1);
        assertThat(b.counter("jrxe_odp_page_faults")).isEqualTo(3);
        assertThat(b.counter("jrxe_odp_rnr_naks")).isGreaterThan(naks);
    }

    /** A WRITE of {@code length} seeded bytes from A's memory at offset into B's at the same offset, landed. */
    private static void write(Side a, Side b, long offset, int length, long seed) throws Exception {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        MemorySegment.copy(bytes, 0, a.memory, ValueLayout.JAVA_BYTE, offset, length);
        SendWr wr = new SendWr(1);
        wr.opcode = WrOpcode.RDMA_WRITE;
        wr.flags = SendWr.SIGNALED;
        wr.sgl.add(a.memory.address() + offset, length, a.mr.lkey());
        wr.remoteAddr = b.memory.address() + offset;
        wr.rkey = b.mr.rkey();
        a.qp.postSend(wr);
        WorkCompletion[] wc = {new WorkCompletion()};
        assertThat(a.cq.poll(wc, 10, TimeUnit.SECONDS)).as("a completion within 10 s").isEqualTo(1);
        assertThat(wc[0].status()).isEqualTo(WcStatus.SUCCESS);
        assertThat(b.memory.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE)).isEqualTo(bytes);
    }
}
