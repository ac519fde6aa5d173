package io.jrxe.wire.port.fault;

import io.jrxe.wire.capture.CaptureReader;
import io.jrxe.wire.capture.CaptureTap;
import io.jrxe.wire.capture.CapturedFrame;
import io.jrxe.wire.capture.PcapngWriter;
import io.jrxe.wire.capture.Tshark;
import io.jrxe.wire.dissect.DissectedPacket;
import io.jrxe.wire.dissect.Dissector;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.port.PacketPort;
import io.jrxe.wire.port.PacketTap;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.raw.RawSocketOpener;
import io.jrxe.wire.port.raw.TransmitPath;
import io.jrxe.wire.port.udp.UdpPort;
import io.jrxe.wire.port.udp.UdpTransport;
import io.jrxe.wire.sim.VirtualTime;
import io.jrxe.wire.testing.ExternalTool;
import io.jrxe.wire.testing.SamplePackets;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A packet a fault drops on its way out of a real UDP port is captured as it would have left: its ICRC is the one
 * the port would have sent it with, for the IP identification the capture shows (0 through a UDP socket, one the
 * port chose through the raw socket). jrxe's dissector and scapy's RoCE layer both find it right.
 */
class DroppedOnSendCaptureTest {
    private static final PeerAddress LOCAL = PeerAddress.of("127.0.61.1");
    private static final PeerAddress PEER = PeerAddress.of("127.0.61.2");
    private static final int SOURCE_PORT = 50_611;
    /** The first WRITE is dropped, the second sent. */
    private static final String FAULTS = "drop,nth=1,op=write,count=1";

    @TempDir
    static Path dir;
    static Path udpCapture;
    static final List<Integer> udpIdentifications = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void captureThroughAUdpSocket() throws Exception {
        udpCapture = dir.resolve("udp.pcapng");
        capture(udpCapture, RawSocketOpener.denied(), udpIdentifications);
    }

    /** Sends two WRITEs through the faulty port over a real one opened with {@code opener}, capturing both. */
    private static void capture(Path file, RawSocketOpener opener, List<Integer> identifications) throws Exception {
        UdpTransport transport = UdpTransport.best();
        EventLoopGroup loop = transport.newNicThread("dropped-on-send");
        CaptureTap capture = new CaptureTap(new PcapngWriter(file), 100, 1 << 20);
        try {
            UdpPort udp = UdpPort.bind(transport, loop.next(), LOCAL, opener, true);
            PacketPort port = FaultyPort.wrap(udp, FaultSpec.parse(FAULTS), new VirtualTime());
            try {
                PacketTap record = (d, s, t, sp, dp, id, roce, off, len, ts, c) -> identifications.add(id);
                port.tap(PacketTap.both(capture.forPort("a"), record));
                Random random = new Random(61);
                byte[] first = SamplePackets.roce(Opcode.RC_RDMA_WRITE_ONLY, 64, random);
                byte[] second = SamplePackets.roce(Opcode.RC_RDMA_WRITE_ONLY, 64, random);
                loop.next().submit(() -> {
                    port.send(ByteBuffer.wrap(first), 0, first.length, PEER, SOURCE_PORT);
                    port.send(ByteBuffer.wrap(second), 0, second.length, PEER, SOURCE_PORT);
                }).syncUninterruptibly();
            } finally {
                port.close();
            }
        } finally {
            capture.close();
            loop.shutdownGracefully(0, 100, TimeUnit.MILLISECONDS).syncUninterruptibly();
        }
    }

    private static void everyIcrcIsRight(Path file) {
        Dissector dissector = new Dissector();
        List<CapturedFrame> frames = CaptureReader.readAll(file);
        assertThat(frames).as("the dropped WRITE and the sent one").hasSize(2);
        for (CapturedFrame f : frames) {
            DissectedPacket p = dissector.dissect(f.frameNumber(), f.timestampNanos(), f.data(), f.linkType());
            assertThat(p.icrcOk()).as("frame %d's ICRC", f.frameNumber()).isTrue();
        }
    }

    private static void scapyFindsEveryIcrcRight(Path file, List<Integer> identifications) {
        Path script = ExternalTool.scapyIcrcScript(dir);
        List<String> lines = ExternalTool.runOk(List.of(ExternalTool.DEBIAN_PYTHON.toString(), script.toString(), "pcap",
                file.toString()), 120).lines().filter(l -> !l.startsWith("WARNING")).toList();
        assertThat(lines).containsExactly("ok " + identifications.get(0), "ok " + identifications.get(1));
    }

    @Test
    void aDroppedPacketsIcrcIsRightThroughAUdpSocket() {
        assertThat(udpIdentifications).as("a UDP socket leaves the identification to the kernel").containsExactly(0, 0);
        everyIcrcIsRight(udpCapture);
    }

    @Test
    void theCaptureSaysWhichWasDropped() {
        Tshark.assumeInstalled();
        List<List<String>> rows = Tshark.fields(udpCapture, "frame.comment", "udp.srcport");
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).get(0)).startsWith("fault on send: dropped");
        assertThat(rows.get(1).get(0)).isEmpty();
        // The source port's own socket is bound asynchronously: until it is, packets leave from the 4791 socket.
        assertThat(rows.get(0).get(1)).as("the dropped one's source port, as the sent one's").isEqualTo(rows.get(1).get(1));
    }

    @Test
    void scapyFindsTheDroppedPacketsIcrcRightThroughAUdpSocket() {
        scapyFindsEveryIcrcRight(udpCapture, udpIdentifications);
    }

    /** Through the raw socket the dropped packet uses up the identification it would have carried. */
    @Test
    void aDroppedPacketsIcrcIsRightThroughTheRawSocket() throws Exception {
        TransmitPath path = TransmitPath.probe(false, RawSocketOpener.system());
        if (path.kind() != TransmitPath.Kind.RAW_IPV4) {
            System.out.println("SKIPPED: no raw IPv4 socket here (" + path.reason() + ")");
        }
        assumeTrue(path.kind() == TransmitPath.Kind.RAW_IPV4, "no raw IPv4 socket here");
        Path rawCapture = dir.resolve("raw.pcapng");
        List<Integer> identifications = new CopyOnWriteArrayList<>();
        capture(rawCapture, RawSocketOpener.system(), identifications);

        assertThat(identifications).as("the one the dropped packet would have carried, then the next")
                .containsExactly(1, 2);
        everyIcrcIsRight(rawCapture);
        scapyFindsEveryIcrcRight(rawCapture, identifications);
    }
}
