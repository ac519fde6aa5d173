package io.jrxe.tools.compare;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.tools.UserError;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.facade.Verbs;
import io.jrxe.verbs.emulated.EmulatedDevice;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * tcpdump as a setup's packet source: what it captures on the loopback interface while two jrxe NICs run steps reads
 * as the same rows jrxe's own tap gives. Needs tcpdump and the right to capture (root, or CAP_NET_RAW).
 */
class TcpdumpCaptureTest {
    private static TcpdumpCapture startOrSkip(String iface) {
        try {
            return TcpdumpCapture.start(iface);
        } catch (UserError e) {
            System.err.println("SKIPPED: tcpdump cannot capture here: " + e.getMessage());
            Assumptions.abort("tcpdump cannot capture here: " + e.getMessage());
            throw e;
        }
    }

    @Test
    void packetsTcpdumpSawOnLoopbackAreTheSteps() throws Exception {
        TcpdumpCapture tcpdump = startOrSkip("lo");
        EmulatedDevice devA = Verbs.emulated().createUdp(DeviceConfig.of("jrxe-td-a", InetAddress.getByName("127.0.8.10")));
        EmulatedDevice devB = Verbs.emulated().createUdp(DeviceConfig.of("jrxe-td-b", InetAddress.getByName("127.0.8.11")));
        Arena arena = Arena.ofShared();
        Context ctxA = devA.open();
        Context ctxB = devB.open();
        Node a = new Node("A", ctxA, ctxA.queryGid(1, 1), arena);
        Node b = new Node("B", ctxB, ctxB.queryGid(1, 1), arena);
        try (Rig rig = new Rig("tcpdump", "two NICs", a, b, List.of(ctxA, ctxB), devA.nic().resources().port().activeMtu(), tcpdump,
                arena, () -> {
                    Verbs.emulated().remove(devA);
                    Verbs.emulated().remove(devB);
                })) {
            CompareRun run = new CompareRun(rig, rig.activeMtu(), TimeUnit.SECONDS.toNanos(5), null);
            List<Observation> seen = run.run(List.of(DemoSteps.all().getFirst(), DemoSteps.all().getLast()));
            assertThat(run.packetsWhy()).isNull();
            assertThat(seen.getFirst().packets()).containsExactly("A>B SEND_ONLY psn+0 A len=16",
                    "B>A ACKNOWLEDGE psn+0 ACK credits=invalid msn=1");
            assertThat(seen.getLast().packets()).containsExactly("A>B RDMA_WRITE_ONLY psn+0 A len=64",
                    "B>A ACKNOWLEDGE psn+0 NAK remote access error msn=0");
        }
    }

    @Test
    void anInterfaceThatIsNotThereIsNamedInOneLine() {
        assertThatThrownBy(() -> TcpdumpCapture.start("jrxe-no-such-if"))
                .isInstanceOf(UserError.class)
                .hasMessageStartingWith("--tcpdump jrxe-no-such-if: ")
                .hasMessageNotContaining("\n");
    }
}
