package io.jrxe.rnic;

import io.jrxe.rnic.engine.QpHandle;
import io.jrxe.rnic.memory.ProtectionDomain;
import io.jrxe.rnic.queue.CompletionQueue;
import io.jrxe.rnic.transport.InvokedTransport;
import io.jrxe.rnic.transport.NicThreadTransport;
import io.jrxe.rnic.transport.NicTransport;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpType;
import io.jrxe.wire.ecn.Ecn;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.header.RethFlyweight;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.opcode.ExtensionHeader;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.udp.TosReceiver;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The loop's notification point on real sockets: a RoCE peer (a plain socket on port 4791) sends an ECN-capable
 * jrxe device, run by its invoker loop's standby thread or by its NIC thread, a request marked CE as a congested
 * switch would; the device
 * reads the mark through recvmsg, counts it and sends the peer's QP a CNP, ECN-capable as everything it sends.
 */
class CnpOverLoopbackTest {
    private static final PeerAddress DEVICE = PeerAddress.of("127.0.34.11");
    private static final PeerAddress PEER = PeerAddress.of("127.0.34.12");
    private static final long WAIT_NANOS = 10_000_000_000L;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"invoked", "nic-thread"})
    void aCeMarkedRequestOverLoopbackBringsTheSenderACnp(String progress) throws Exception {
        String why = TosReceiver.unavailableReason();
        if (why != null) {
            System.out.println("SKIPPED: " + why);
        }
        assumeTrue(why == null, why);
        DeviceConfig config = DeviceConfig.of("cnp0", DEVICE.address()).withEcnCapable(true);
        try (DatagramChannel peer = DatagramChannel.open(StandardProtocolFamily.INET)) {
            peer.bind(PEER.socketAddress());
            TosReceiver fromDevice = TosReceiver.of(PEER.socketAddress(), 2048);
            NicTransport transport = progress.equals("invoked") ? InvokedTransport.bindUdp(config)
                    : NicThreadTransport.bindUdp(config);
            if (transport instanceof NicThreadTransport t && t.udpPort().tosUnreadReason() != null) {
                transport.close();
                System.out.println("SKIPPED: " + t.udpPort().tosUnreadReason());
                assumeTrue(false, t.udpPort().tosUnreadReason());
            }
            Nic nic = new NicContext(config).transport(transport).open();
            try {
                NicResources r = nic.resources();
                ProtectionDomain pd = r.allocatePd();
                CompletionQueue cq = r.createCq(8, null);
                QpHandle qp = nic.createQp(pd, QpType.RC, cq, cq, null, new QpCapabilities(8, 8, 1, 1, 0), false);
                NicPartsTest.toRts(nic, qp, PEER.gid());

                peer.setOption(StandardSocketOptions.IP_TOS, Ecn.CE);
                peer.send(markedReadRequest(qp.qp().qpn()), DEVICE.socketAddress());

                ByteBuffer cnp = null;
                long deadline = System.nanoTime() + WAIT_NANOS;
                while (cnp == null) {
                    int length = fromDevice.receive();
                    if (length >= 0 && (fromDevice.buffer().get(0) & 0xFF) == Opcode.CNP.code()) {
                        assertThat(length).isEqualTo(Opcode.CNP.headerLength() + IcrcCalculator.LENGTH);
                        assertThat(Ecn.of(fromDevice.tos())).as("the CNP, as all the device sends").isEqualTo(Ecn.ECT_0);
                        assertThat(fromDevice.sender().getAddress()).isEqualTo(DEVICE.address());
                        cnp = fromDevice.buffer();
                    }
                    assertThat(System.nanoTime()).as("a CNP within 10 s").isLessThan(deadline);
                    Thread.onSpinWait();
                }
                BthFlyweight bth = new BthFlyweight().wrap(cnp, 0);
                assertThat(bth.destQpn()).as("the sender's QP").isEqualTo(0x22);
                assertThat(bth.becn()).isTrue();
                for (String counter : new String[] {"jrxe_ecn_ce_received", "jrxe_rcvd_ecn_ce", "jrxe_sent_cnp"}) {
                    // Counted before the CNP left, by another thread: its store may reach this one a moment later.
                    while (nic.counters().get(counter) == 0 && System.nanoTime() < deadline) {
                        Thread.onSpinWait();
                    }
                    assertThat(nic.counters().get(counter)).as(counter).isEqualTo(1);
                }
            } finally {
                nic.close();
            }
        }
    }

    /** A zero-length RDMA READ request from QP 0x22 with PSN 0, its ICRC as a jrxe or rxe peer over UDP writes it. */
    private static ByteBuffer markedReadRequest(int qpn) {
        Opcode op = Opcode.RC_RDMA_READ_REQUEST;
        ByteBuffer b = ByteBuffer.allocate(op.headerLength() + IcrcCalculator.LENGTH);
        new BthFlyweight().wrap(b, 0).set(op.code(), false, 0, BthFlyweight.DEFAULT_PKEY, qpn, true, 0);
        new RethFlyweight().wrap(b, op.offsetOf(ExtensionHeader.RETH)).set(0, 0, 0);
        IcrcCalculator.write(b, b.capacity() - IcrcCalculator.LENGTH, new IcrcCalculator().ipv4(PEER.ipv4(), DEVICE.ipv4(), 0,
                0x4000, PeerAddress.ROCE_PORT, PeerAddress.ROCE_PORT, b, 0, b.capacity()));
        return b;
    }
}
