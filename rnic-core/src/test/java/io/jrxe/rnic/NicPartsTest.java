package io.jrxe.rnic;

import io.jrxe.rnic.cc.CongestionControl;
import io.jrxe.rnic.engine.QpHandle;
import io.jrxe.rnic.memory.MptEntry;
import io.jrxe.rnic.memory.PageFaultHook;
import io.jrxe.rnic.memory.ProtectionDomain;
import io.jrxe.rnic.queue.CompletionQueue;
import io.jrxe.rnic.transport.SimulatedTransport;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.stats.CounterRegistry;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A NIC built from a context whose every part is a stand-in: the transport (a port that keeps what
 * is sent, and a clock whose tasks run when the test says), congestion control, the page-fault hook
 * and the counters registry. Each part is seen to be used by the engines, and only through the context.
 */
class NicPartsTest {
    static final PeerAddress LOCAL = PeerAddress.of(address("10.7.0.1"));
    static final PeerAddress PEER = PeerAddress.of(address("10.7.0.2"));
    private static final int MTU = 1024;

    /** Lets {@code budget} packets out, then holds the QP until the test opens it again. */
    static final class GateControl implements CongestionControl {
        int budget;
        int notified;
        Runnable wake;

        @Override
        public String name() {
            return "gate";
        }

        @Override
        public Flow attach(int qpn, Runnable wake) {
            this.wake = wake;
            return new Flow() {
                @Override
                public boolean mayTransmit() {
                    return budget-- > 0;
                }

                @Override
                public boolean mayRespond() {
                    return true;
                }

                @Override
                public boolean nearLimit() {
                    return false;
                }

                @Override
                public boolean refusesNext() {
                    return budget <= 0;
                }

                @Override
                public void turnEnded() {
                }

                @Override
                public void acknowledged(int packets) {
                }

                @Override
                public void inFlight(int packets) {
                }

                @Override
                public void congestionNotified() {
                    notified++;
                }

                @Override
                public void congestionExperienced() {
                }

                @Override
                public void detach() {
                }
            };
        }
    }

    @Test
    void theEnginesUseEveryPartTheContextGives() throws Exception {
        ManualClock clock = new ManualClock();
        StandInPort port = new StandInPort(LOCAL, PEER);
        GateControl gate = new GateControl();
        gate.budget = 2;
        List<Long> faults = new ArrayList<>();
        PageFaultHook hook = (region, mttIndex, mtt) -> {
            faults.add(mttIndex);
            long page = region.segment().address() & ~(MptEntry.PAGE_SIZE - 1);
            mtt.set(mttIndex, page);
            return page;
        };
        CounterRegistry registry = new CounterRegistry();
        Nic nic = new NicContext(DeviceConfig.of("parts0", LOCAL.address()))
                .transport(SimulatedTransport.of(port, clock))
                .congestionControl((time, counters) -> {
                    counters.register("standin_cc_name_length", () -> 4);
                    return gate;
                })
                .pageFaults(hook)
                .counters(registry)
                .open();
        try (Arena arena = Arena.ofShared()) {
            NicResources r = nic.resources();
            ProtectionDomain pd = r.allocatePd();
            MemorySegment memory = arena.allocate(4 * MTU, MptEntry.PAGE_SIZE);
            MptEntry mr = r.memory().registerMr(pd, memory, memory.address(), Access.LOCAL_WRITE);
            CompletionQueue cq = r.createCq(8, null);
            QpHandle qp = nic.createQp(pd, QpType.RC, cq, cq, null, new QpCapabilities(8, 8, 1, 1, 0), false);
            toRts(nic, qp);

            // The region's first page loses its translation: the requester's gather must fault it in through the hook.
            r.memory().mtt().set(mr.mttOffset(), 0);
            qp.postSend(signaledWrite(memory.address(), 4 * MTU, mr.key()));
            clock.runAll();

            assertThat(faults).as("MTT entries faulted through the hook").containsExactly(mr.mttOffset());
            assertThat(port.sent).as("packets out while the stand-in congestion control allows two").hasSize(2);
            gate.budget = 10;
            gate.wake.run();
            clock.runAll();
            assertThat(port.sent).as("packets out once it allows more").hasSize(4);
            assertThat(clock.timers).as("the ACK timer runs on the stand-in clock").isNotEmpty();

            port.deliver(cnp(qp.qp().qpn()));
            assertThat(gate.notified).as("CNPs the stand-in congestion control heard of").isEqualTo(1);
            assertThat(registry.snapshot()).as("every part's counters in the registry the context gave")
                    .containsEntry("sent_pkts", 4L)
                    .containsEntry("jrxe_rcvd_cnp", 1L)
                    .containsEntry("standin_port_sent", 4L)
                    .containsEntry("standin_cc_name_length", 4L)
                    .containsKey("jrxe_gsi_mads_received");
        } finally {
            nic.close();
        }
    }

    static void toRts(Nic nic, QpHandle qp) throws RnicException {
        toRts(nic, qp, PEER.gid());
    }

    /** Takes an RC QP to RTS connected to QP 0x22 of the device with {@code peerGid}, expecting PSN 0 from it. */
    static void toRts(Nic nic, QpHandle qp, byte[] peerGid) throws RnicException {
        nic.modifyQp(qp, new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(0));
        nic.modifyQp(qp, new QpAttributes().state(QpState.RTR).av(AddressVector.to(peerGid, 1)).pathMtu(Mtu.MTU_1024)
                .destQpn(0x22).rqPsn(0).maxDestRdAtomic(1).minRnrTimer(12));
        nic.modifyQp(qp, new QpAttributes().state(QpState.RTS).sqPsn(100).timeout(14).retryCnt(7).rnrRetry(7)
                .maxRdAtomic(1));
    }

    /** A signaled RDMA WRITE (wr_id 7) of the local bytes to the peer's address 0x1000, rkey 0x1234. */
    static SendWr signaledWrite(long address, int length, int lkey) {
        SendWr write = new SendWr(7);
        write.opcode = WrOpcode.RDMA_WRITE;
        write.flags = SendWr.SIGNALED;
        write.sgl.add(address, length, lkey);
        write.remoteAddr = 0x1000;
        write.rkey = 0x1234;
        return write;
    }

    /** A CNP (BTH opcode 0x81, 16 reserved bytes, ICRC) for the QP whose packets were marked. */
    static byte[] cnp(int qpn) {
        byte[] packet = new byte[Opcode.CNP.headerLength() + IcrcCalculator.LENGTH];
        new BthFlyweight().wrap(ByteBuffer.wrap(packet), 0).set(Opcode.CNP.code(), false, 0, BthFlyweight.DEFAULT_PKEY, qpn,
                false, 0);
        return packet;
    }

    static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
