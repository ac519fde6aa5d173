package io.jrxe.rnic;

import io.jrxe.rnic.engine.QpHandle;
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
import io.jrxe.wire.cm.MadHeaderFlyweight;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.header.DethFlyweight;
import io.jrxe.wire.header.RethFlyweight;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.opcode.ExtensionHeader;
import io.jrxe.wire.opcode.Opcode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static io.jrxe.rnic.NicPartsTest.LOCAL;
import static io.jrxe.rnic.NicPartsTest.PEER;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every kind of drop the NIC makes beyond the receive checks is counted under its name, in the registry that
 * JMX, {@code stat}, {@code devinfo -v} and {@code --counters} read: each is caused here and its count found.
 */
class CountedDropsTest {
    private static final int REMOTE_QPN = 0x22;
    private static final int RQ_PSN = 500;

    private ManualClock clock;
    private StandInPort port;
    private Nic nic;
    private QpHandle qp;

    @BeforeEach
    void rcQpInRts() throws Exception {
        clock = new ManualClock();
        port = new StandInPort(LOCAL, PEER);
        nic = new NicContext(DeviceConfig.of("drops0", LOCAL.address())).transport(SimulatedTransport.of(port, clock)).open();
        rcQpInRtsOnTheNic();
    }

    private void rcQpInRtsOnTheNic() throws Exception {
        NicResources r = nic.resources();
        ProtectionDomain pd = r.allocatePd();
        CompletionQueue cq = r.createCq(8, null);
        qp = nic.createQp(pd, QpType.RC, cq, cq, null, new QpCapabilities(8, 8, 1, 1, 0), false);
        nic.modifyQp(qp, new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(Access.REMOTE_READ));
        nic.modifyQp(qp, new QpAttributes().state(QpState.RTR).av(AddressVector.to(PEER.gid(), 1)).pathMtu(Mtu.MTU_1024)
                .destQpn(REMOTE_QPN).rqPsn(RQ_PSN).maxDestRdAtomic(1).minRnrTimer(12));
        nic.modifyQp(qp, new QpAttributes().state(QpState.RTS).sqPsn(0).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(1));
    }

    @AfterEach
    void close() {
        nic.close();
    }

    private long counter(String name) {
        return nic.counters().get(name);
    }

    @Test
    void aCnpIsCountedAndHandedToCongestionControlWhichCountsWhatItIgnores() {
        port.deliver(NicPartsTest.cnp(qp.qp().qpn()));
        port.deliver(NicPartsTest.cnp(0x777));
        assertThat(counter("jrxe_rcvd_cnp")).isEqualTo(1);
        assertThat(counter("jrxe_cc_cnp_ignored")).as("the default congestion control ignores it, counted").isEqualTo(1);
        assertThat(counter("jrxe_drop_unknown_qpn")).as("a CNP for no QP of the device").isEqualTo(1);
    }

    @Test
    void aCongestionExperiencedMarkIsCounted() {
        port.deliver(0x3, readRequest(RQ_PSN));
        port.deliver(0x2, readRequest(RQ_PSN + 1)); // ECT(0): not a mark
        assertThat(counter("jrxe_rcvd_ecn_ce")).isEqualTo(1);
        assertThat(counter("jrxe_cc_ecn_ce_ignored")).isEqualTo(1);
    }

    /**
     * The notification point: a CE-marked request makes the QP send its peer's QP a CNP (BTH 0x81, BECN, to the
     * QP's peer), at most one per interval (50 us by default); a mark within the interval is counted, not answered.
     */
    @Test
    void aCeMarkSendsTheSenderOneCnpPerInterval() {
        port.deliver(0x2, readRequest(RQ_PSN)); // ECT(0): no mark, no CNP
        assertThat(cnpsSent()).isEmpty();
        port.deliver(0x3, readRequest(RQ_PSN + 1));
        port.deliver(0x3, readRequest(RQ_PSN + 2));
        clock.now += DeviceConfig.DEFAULT_CNP_INTERVAL_NANOS - 1;
        port.deliver(0x3, readRequest(RQ_PSN + 3));
        assertThat(cnpsSent()).as("one CNP for three marks within 50 us").hasSize(1);
        assertThat(counter("jrxe_sent_cnp")).isEqualTo(1);
        assertThat(counter("jrxe_cnp_not_sent")).isEqualTo(2);
        clock.now += 1;
        port.deliver(0x3, readRequest(RQ_PSN + 4));
        List<byte[]> cnps = cnpsSent();
        assertThat(cnps).as("the interval passed").hasSize(2);
        assertThat(counter("jrxe_rcvd_ecn_ce")).isEqualTo(4);
        for (byte[] cnp : cnps) {
            BthFlyweight bth = new BthFlyweight().wrap(ByteBuffer.wrap(cnp), 0);
            assertThat(bth.destQpn()).as("the peer's QP").isEqualTo(REMOTE_QPN);
            assertThat(bth.becn()).isTrue();
            assertThat(bth.psn()).isZero();
            assertThat(cnp).hasSize(Opcode.CNP.headerLength() + IcrcCalculator.LENGTH);
        }
    }

    @Test
    void theCnpIntervalIsTheDevicesToSet() throws Exception {
        nic.close();
        port = new StandInPort(LOCAL, PEER);
        nic = new NicContext(DeviceConfig.of("drops0", LOCAL.address()).withCnpInterval(0))
                .transport(SimulatedTransport.of(port, clock)).open();
        rcQpInRtsOnTheNic();
        port.deliver(0x3, readRequest(RQ_PSN), readRequest(RQ_PSN + 1), readRequest(RQ_PSN + 2));
        assertThat(cnpsSent()).as("an interval of 0: one CNP per mark").hasSize(3);
        assertThat(counter("jrxe_cnp_not_sent")).isZero();
    }

    private List<byte[]> cnpsSent() {
        return port.sent.stream().filter(p -> (p[0] & 0xFF) == Opcode.CNP.code()).toList();
    }

    @Test
    void aResponseTheResponseQueueCannotHoldIsCounted() {
        // READs whose responses wait (the QP's task has not run): the response queue fills, the first READ beyond it
        // is not executed (counted as no resources, its PSN stays expected, so the ones after it are out of
        // sequence) and a duplicate of the last one executed finds no room for its replay.
        List<byte[]> reads = new ArrayList<>();
        int count = 2 * nic.resources().attributes().maxQpRdAtom() + 8 + 4;
        for (int i = 0; i < count; i++) {
            reads.add(readRequest(RQ_PSN + i));
        }
        port.deliver(0, reads.toArray(byte[][]::new));
        assertThat(counter("jrxe_drop_no_resources")).isEqualTo(1);
        long executed = count - 1 - counter("out_of_seq_request");
        assertThat(counter("jrxe_drop_response_queue_full")).as("the sequence NAK for the READs out of sequence")
                .isEqualTo(1);
        port.deliver(readRequest(RQ_PSN + (int) executed - 1));
        assertThat(counter("duplicate_request")).isEqualTo(1);
        assertThat(counter("jrxe_drop_response_queue_full")).as("and the duplicate's replay").isEqualTo(2);
    }

    @Test
    void madsBeyondWhatTheCmsInboxHoldsAreCounted() {
        int mads = 300;
        byte[][] burst = new byte[mads][];
        for (int i = 0; i < mads; i++) {
            burst[i] = mad(i);
        }
        port.deliver(0, burst); // all before the CM's task runs
        long busy = counter("jrxe_gsi_drop_agent_busy");
        assertThat(busy).isPositive();
        assertThat(counter("jrxe_gsi_mads_received") + busy).isEqualTo(mads);
        clock.runAll();
        assertThat(counter("jrxe_gsi_drop_unknown_attribute")).as("the CM read every MAD it took")
                .isEqualTo(counter("jrxe_gsi_mads_received"));
    }

    /** An RC RDMA READ request for 0 bytes to the QP, from its peer. */
    private byte[] readRequest(int psn) {
        Opcode op = Opcode.RC_RDMA_READ_REQUEST;
        byte[] packet = new byte[op.headerLength() + IcrcCalculator.LENGTH];
        ByteBuffer b = ByteBuffer.wrap(packet);
        new BthFlyweight().wrap(b, 0).set(op.code(), false, 0, BthFlyweight.DEFAULT_PKEY, qp.qp().qpn(), true, psn);
        new RethFlyweight().wrap(b, op.offsetOf(ExtensionHeader.RETH)).set(0, 0, 0);
        return packet;
    }

    /** A 256-byte CM MAD to QP1 whose attribute the CM does not handle (method 0x7f). */
    private static byte[] mad(int tid) {
        Opcode op = Opcode.UD_SEND_ONLY;
        byte[] packet = new byte[op.headerLength() + MadHeaderFlyweight.MAD_LENGTH + IcrcCalculator.LENGTH];
        ByteBuffer b = ByteBuffer.wrap(packet);
        new BthFlyweight().wrap(b, 0).set(op.code(), false, 0, BthFlyweight.DEFAULT_PKEY, MadHeaderFlyweight.GSI_QPN, false, tid);
        new DethFlyweight().wrap(b, op.offsetOf(ExtensionHeader.DETH)).set(MadHeaderFlyweight.GSI_QKEY, 1);
        MadHeaderFlyweight h = new MadHeaderFlyweight().wrap(b, op.headerLength());
        h.baseVersion(MadHeaderFlyweight.BASE_VERSION).managementClass(MadHeaderFlyweight.MGMT_CLASS_CM)
                .classVersion(MadHeaderFlyweight.CM_CLASS_VERSION);
        b.put(op.headerLength() + MadHeaderFlyweight.METHOD_OFFSET, (byte) 0x7F);
        return packet;
    }
}
