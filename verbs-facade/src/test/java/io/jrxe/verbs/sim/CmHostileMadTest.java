package io.jrxe.verbs.sim;

import io.jrxe.rnic.cm.AcceptParams;
import io.jrxe.rnic.cm.CmConnection;
import io.jrxe.verbs.cm.CmEventType;
import io.jrxe.rnic.cm.CmState;
import io.jrxe.rnic.cm.ConnectParams;
import io.jrxe.rnic.device.Counter;
import io.jrxe.rnic.engine.MadDropReason;
import io.jrxe.verbs.Qp;
import io.jrxe.wire.capture.CaptureReader;
import io.jrxe.wire.capture.CapturedFrame;
import io.jrxe.wire.capture.GoldenCaptures;
import io.jrxe.wire.port.RoceSourcePort;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static io.jrxe.verbs.sim.CmFixture.SECOND;
import static io.jrxe.verbs.sim.CmFixture.SERVICE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kernel rxe's CM packets (testdata/rxe-cm), broken on purpose and thrown at a jrxe NIC: none may
 * throw inside the NIC, each is counted (taken by QP1 or dropped by reason), and the CM still
 * connects afterwards.
 */
class CmHostileMadTest {
    /** The RoCE packets (BTH to ICRC) of every MAD in the golden CM captures: Ethernet 14 + IPv4 20 + UDP 8 before them. */
    static List<byte[]> goldenMads() {
        List<byte[]> packets = new ArrayList<>();
        for (Path file : GoldenCaptures.cmFiles()) {
            for (CapturedFrame f : CaptureReader.readAll(file)) {
                byte[] roce = Arrays.copyOfRange(f.data(), 42, f.data().length);
                if (CmFaultTest.attributeOf(roce) != null) {
                    packets.add(roce);
                }
            }
        }
        return packets;
    }

    /** The packets that reached B's GSI or were dropped on their way there, each for its reason. */
    private static long counted(CmFixture.Node b) {
        return b.gsi().received() + b.gsi().droppedTotal() + b.counter(Counter.DROP_MALFORMED)
                + b.counter(Counter.DROP_UNKNOWN_OPCODE) + b.counter(Counter.DROP_UNKNOWN_QPN);
    }

    @Test
    void qp1ChecksThePkeyAndQkeyAsIbtaSaysForTheGsi() throws Exception {
        try (CmFixture f = new CmFixture(30)) {
            CmFixture.Node a = f.node("10.0.0.1");
            CmFixture.Node b = f.node("10.0.0.2");
            byte[] req = goldenMads().getFirst();
            int port = RoceSourcePort.datagram(1);
            byte[] badPkey = req.clone();
            badPkey[2] = 0x12; // P_Key 0x12ff: in no entry of the table (which holds 0xffff)
            f.inject(a.address, b.address, badPkey, port);
            byte[] limited = req.clone();
            limited[2] = 0x7F; // 0x7fff, a limited member of the default partition: QP1 takes it
            f.inject(a.address, b.address, limited, port);
            byte[] badQkey = req.clone();
            badQkey[12] = 0x11; // DETH Q_Key 0x11010000
            f.inject(a.address, b.address, badQkey, port);
            byte[] badBase = req.clone();
            badBase[20] = 2;
            f.inject(a.address, b.address, badBase, port);
            byte[] badVersion = req.clone();
            badVersion[22] = 1;
            f.inject(a.address, b.address, badVersion, port);
            byte[] unknownClass = req.clone();
            unknownClass[21] = 0x05; // baseboard management: no agent
            f.inject(a.address, b.address, unknownClass, port);
            byte[] perfMgmtVersion2 = req.clone();
            perfMgmtVersion2[21] = 0x04; // performance management, whose agent speaks version 1 only
            f.inject(a.address, b.address, perfMgmtVersion2, port);
            byte[] shortMad = Arrays.copyOf(req, req.length - 40);
            f.inject(a.address, b.address, shortMad, port);
            f.settle(SECOND, () -> b.gsi().received() + b.gsi().droppedTotal() == 8 && b.gsi().sent() == 1);
            assertThat(b.gsi().dropped(MadDropReason.BAD_PKEY)).isEqualTo(1);
            assertThat(b.gsi().dropped(MadDropReason.BAD_QKEY)).isEqualTo(1);
            assertThat(b.gsi().dropped(MadDropReason.BAD_BASE_VERSION)).isEqualTo(1);
            assertThat(b.gsi().dropped(MadDropReason.BAD_CLASS_VERSION)).as("the CM's and the PMA's").isEqualTo(2);
            assertThat(b.gsi().dropped(MadDropReason.UNKNOWN_CLASS)).isEqualTo(1);
            assertThat(b.gsi().dropped(MadDropReason.BAD_LENGTH)).isEqualTo(1);
            assertThat(b.gsi().received()).as("the limited-member REQ").isEqualTo(1);
            assertThat(b.gsi().sent()).as("answered: nobody listens on rping's port").isEqualTo(1);
            assertThat(b.counter(Counter.DROP_BAD_PKEY)).isEqualTo(1);
        }
    }

    @Test
    void fuzzedGoldenMadsNeverThrowAreAllCountedAndTheCmStillConnects() throws Exception {
        List<byte[]> golden = goldenMads();
        assertThat(golden).hasSizeGreaterThanOrEqualTo(17);
        try (CmFixture f = new CmFixture(31)) {
            CmFixture.Node a = f.node("10.0.0.1");
            CmFixture.Node b = f.node("10.0.0.2");
            b.cm().listen(SERVICE, b.queue);
            b.cm().listen(0x0000_0000_0106_1d2fL, b.queue); // ucmatose's port: its REQs reach a listener
            SplittableRandom random = new SplittableRandom(31);
            int port = RoceSourcePort.datagram(1);
            int packets = 20_000;
            for (int i = 0; i < packets; i++) {
                byte[] p = golden.get(random.nextInt(golden.size())).clone();
                int flips = 1 + random.nextInt(4);
                for (int k = 0; k < flips; k++) {
                    // Mostly the MAD (where the CM reads), sometimes the BTH and DETH.
                    int at = random.nextInt(10) == 0 ? random.nextInt(20) : 20 + random.nextInt(256);
                    p[at] = (byte) random.nextInt(256);
                }
                if (random.nextInt(50) == 0) {
                    p = Arrays.copyOf(p, 16 + random.nextInt(p.length - 16)); // the injector frames no less than a BTH and an ICRC
                }
                f.inject(a.address, b.address, p, port);
                if (i % 100 == 0) {
                    int injected = i + 1;
                    f.settle(SECOND, () -> counted(b) >= injected);
                    // B's consumer rejects what reached it, so that requests do not pile up.
                    for (CmConnection c : b.cm().connections()) {
                        if (c.state() == CmState.REQ_RCVD || c.state() == CmState.MRA_REQ_SENT) {
                            b.cm().reject(c, new byte[0]);
                        }
                    }
                }
            }
            f.settle(600 * SECOND, () -> counted(b) >= packets);
            assertThat(b.counter(Counter.ENGINE_ERROR)).as("nothing threw inside the NIC").isZero();
            assertThat(counted(b)).as("every packet was taken or dropped for a reason: %s", b.gsi()).isGreaterThanOrEqualTo(packets);
            assertThat(b.gsi().droppedTotal()).isPositive();
            assertThat(b.gsi().received()).isPositive();

            Qp qa = a.newQp();
            Qp qb = b.newQp();
            CmConnection ca = a.cm().connect(new ConnectParams(b.address, SERVICE, qa.qpNum()), a.queue);
            f.await(() -> b.last(CmEventType.CONNECT_REQUEST) != null
                    && b.last(CmEventType.CONNECT_REQUEST).connection().remoteQpn() == qa.qpNum(), SECOND, "CONNECT_REQUEST");
            b.cm().accept(b.last(CmEventType.CONNECT_REQUEST).connection(), new AcceptParams(qb.qpNum()));
            f.await(() -> ca.state() == CmState.ESTABLISHED, SECOND, "ESTABLISHED after the fuzzing");
        }
    }
}
