package io.jrxe.rnic;

import io.jrxe.rnic.cc.CongestionControl;
import io.jrxe.rnic.cc.CongestionControlChoice;
import io.jrxe.rnic.engine.QpHandle;
import io.jrxe.rnic.engine.TraceEvent;
import io.jrxe.rnic.memory.MptEntry;
import io.jrxe.rnic.memory.ProtectionDomain;
import io.jrxe.rnic.queue.CompletionQueue;
import io.jrxe.rnic.transport.SimulatedTransport;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpType;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static io.jrxe.rnic.NicPartsTest.LOCAL;
import static io.jrxe.rnic.NicPartsTest.PEER;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * DCQCN chosen through the NIC's context: a CNP from the peer cuts the QP's rate, and the requester's
 * next packets wait for the pacer, charged by their size; with {@code none} the same CNP holds nothing back.
 */
class DcqcnOnTheNicTest {
    private static final int MTU = 1024;
    /** A WRITE's first packet: BTH (12) and RETH (16) before its payload. */
    private static final int FIRST_WRITE_PACKET = 12 + 16 + MTU;

    private final ManualClock clock = new ManualClock();
    private final StandInPort port = new StandInPort(LOCAL, PEER);

    @Test
    void afterACnpTheRequesterSendsOnePacketAndWaitsForItsSlot() throws Exception {
        Nic nic = nicWith(CongestionControlChoice.named("dcqcn"));
        List<String> rateChanges = new ArrayList<>();
        nic.trace((event, qpn, wrId, psn, opcode, value) -> {
            if (event == TraceEvent.RATE_CHANGED) {
                rateChanges.add(event.opcodeName(opcode) + " " + value);
            }
        });
        try (Arena arena = Arena.ofShared()) {
            cnpThenWrite(nic, arena);
            assertThat(rateChanges).as("the trace shows the cut and why").containsExactly("CUT 5000000000");
            assertThat(nic.counters().get("jrxe_cc_cnp_acted")).isEqualTo(1);
            assertThat(nic.counters().get("jrxe_cc_rate_decreased")).isEqualTo(1);
            assertThat(nic.counters().get("jrxe_cc_rate_limited_qps")).isEqualTo(1);
            assertThat(port.sent).as("one packet, then the pacer holds the QP at 5 Gbit/s").hasSize(1);
            assertThat(nic.counters().get("jrxe_cc_paced")).isEqualTo(1);
            // the wake is set for the first packet's time at 5 Gbit/s: its bytes, as the requester reported them
            long slotNanos = (long) Math.ceil(FIRST_WRITE_PACKET * 8 / 5.0);
            assertThat(clock.timers).contains(slotNanos);
        } finally {
            nic.close();
        }
    }

    /** With a capture on, the QP's next packet says in its comment what its rate became and why. */
    @Test
    void aCaptureTellsTheRateChangeOnTheQpsNextPacket() throws Exception {
        Nic nic = nicWith(CongestionControlChoice.named("dcqcn"));
        List<String> comments = new ArrayList<>();
        port.tap((direction, source, destination, sourcePort, destinationPort, id, roce, offset, length, stamp, comment) ->
                comments.add(String.valueOf(comment)));
        try (Arena arena = Arena.ofShared()) {
            cnpThenWrite(nic, arena);
            assertThat(comments).containsExactly("rate 5.000 Gbit/s: a CNP cut it (DCQCN)");
        } finally {
            nic.close();
        }
    }

    @Test
    void withNoneTheSameCnpHoldsNothingBack() throws Exception {
        Nic nic = nicWith(CongestionControlChoice.named("none"));
        try (Arena arena = Arena.ofShared()) {
            cnpThenWrite(nic, arena);
            assertThat(nic.counters().get("jrxe_cc_cnp_ignored")).isEqualTo(1);
            assertThat(nic.counters().has("jrxe_cc_paced")).isFalse();
            assertThat(port.sent).as("all four packets of the WRITE").hasSize(4);
        } finally {
            nic.close();
        }
    }

    private Nic nicWith(CongestionControl.Factory congestionControl) {
        return new NicContext(DeviceConfig.of("dcqcn0", LOCAL.address()))
                .transport(SimulatedTransport.of(port, clock))
                .congestionControl(congestionControl)
                .open();
    }

    /** An RC QP in RTS hears a CNP, then posts a WRITE of four packets. */
    private void cnpThenWrite(Nic nic, Arena arena) throws Exception {
        NicResources r = nic.resources();
        ProtectionDomain pd = r.allocatePd();
        MemorySegment memory = arena.allocate(4 * MTU, MptEntry.PAGE_SIZE);
        MptEntry mr = r.memory().registerMr(pd, memory, memory.address(), Access.LOCAL_WRITE);
        CompletionQueue cq = r.createCq(8, null);
        QpHandle qp = nic.createQp(pd, QpType.RC, cq, cq, null, new QpCapabilities(8, 8, 1, 1, 0), false);
        NicPartsTest.toRts(nic, qp);
        port.deliver(NicPartsTest.cnp(qp.qp().qpn()));
        assertThat(nic.counters().get("jrxe_rcvd_cnp")).isEqualTo(1);

        qp.postSend(NicPartsTest.signaledWrite(memory.address(), 4 * MTU, mr.key()));
        clock.runAll();
    }
}
