package io.jrxe.tools.compare;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.facade.Verbs;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.wire.capture.GoldenCaptures;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** A run's observations on one real setup, and packets from a capture that are not the run's. */
class CompareRunTest {
    @Test
    void aCaptureOfOtherTrafficIsNotTakenForThisRunsPackets() throws Exception {
        EmulatedDevice dev = Verbs.emulated().createUdp(DeviceConfig.of("jrxe-cmp-run", InetAddress.getByName("127.0.8.7")));
        Arena arena = Arena.ofShared();
        Context ctx = dev.open();
        Node a = new Node("A", ctx, ctx.queryGid(1, 1), arena);
        Node b = new Node("B", ctx, ctx.queryGid(1, 1), arena);
        PacketSource golden = PacketSource.file(GoldenCaptures.file("guest_pingpong.pcap"));
        try (Rig rig = new Rig("jrxe", "one NIC", a, b, List.of(ctx), dev.nic().resources().port().activeMtu(), golden, arena,
                () -> Verbs.emulated().remove(dev))) {
            CompareRun run = new CompareRun(rig, rig.activeMtu(), TimeUnit.SECONDS.toNanos(5), null);
            List<Observation> seen = run.run(DemoSteps.all().subList(0, 2));
            assertThat(seen).allSatisfy(o -> assertThat(o.packets()).isNull());
            assertThat(run.packetsWhy()).matches("the capture holds none of the run's packets \\(\\d+ others\\)");
            Observation send = seen.getFirst();
            assertThat(send.onA()).containsExactly(new Completion(WcStatus.SUCCESS, WcOpcode.SEND, 16, null));
            assertThat(send.onB()).containsExactly(new Completion(WcStatus.SUCCESS, WcOpcode.RECV, 16, null));
            assertThat(send.memory()).isEqualTo("B+0: \"hello from the A\"");
            assertThat(send.states()).isEqualTo("A RTS, B RTS");
            assertThat(send.counters()).containsEntry("sent_pkts", 2L).containsEntry("rcvd_pkts", 2L);
            assertThat(seen.get(1).onB()).containsExactly(new Completion(WcStatus.SUCCESS, WcOpcode.RECV, 8, 0xC0FFEE));
            // The sender's SEND_WITH_IMM completion is flagged WITH_IMM, as rxe's, but holds no immediate data to print.
            assertThat(seen.get(1).onA()).containsExactly(new Completion(WcStatus.SUCCESS, WcOpcode.SEND, 8, null, true));
            assertThat(seen.get(1).onA().getFirst().describe()).isEqualTo("SEND SUCCESS len=8 WITH_IMM");
        }
    }
}
