package io.jrxe.rnic.cc;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicContext;
import io.jrxe.wire.sim.VirtualTime;
import io.jrxe.wire.stats.CounterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The {@code dcqcn} part as the NIC holds it: a window and a rate per QP; and {@code none} as it was. */
class DcqcnTest {
    private final VirtualTime clock = new VirtualTime();
    private final CounterRegistry counters = new CounterRegistry();

    @Test
    void aCnpCutsTheQpsRateAndIsCountedAsActedOn() {
        CongestionControl cc = Dcqcn.of(DcqcnParameters.DEFAULTS).create(clock, counters);
        int[] wakes = {0};
        CongestionControl.Flow flow = cc.attach(0x11, () -> wakes[0]++);
        CongestionControl.Flow other = cc.attach(0x12, () -> { });
        assertThat(cc.name()).isEqualTo("dcqcn");

        flow.congestionNotified();
        assertThat(counters.get("jrxe_cc_cnp_acted")).isEqualTo(1);
        assertThat(counters.get("jrxe_cc_rate_decreased")).isEqualTo(1);
        assertThat(counters.get("jrxe_cc_cnp_ignored")).isZero();

        assertThat(flow.mayTransmit()).isTrue();
        flow.transmitted(4096);
        flow.inFlight(1);
        assertThat(flow.mayTransmit()).as("the next packet waits for its slot at 5 Gbit/s").isFalse();
        assertThat(counters.get("jrxe_cc_paced")).isEqualTo(1);
        assertThat(other.mayTransmit()).as("another QP's rate is its own").isTrue();

        clock.runFor(7_000); // 4096 bytes at 5 Gbit/s take 6.6 us
        assertThat(wakes[0]).as("the pacer woke the QP").isEqualTo(1);
        assertThat(flow.mayTransmit()).isTrue();

        flow.detach();
        clock.runFor(1_000_000);
        assertThat(counters.get("jrxe_cc_rate_increased")).as("a detached QP's timer does nothing")
                .isZero();
    }

    @Test
    void resentPacketsArePacedAsNewOnesAndTakeTheirSlots() {
        CongestionControl cc = Dcqcn.of(DcqcnParameters.DEFAULTS).create(clock, counters);
        int[] wakes = {0};
        CongestionControl.Flow flow = cc.attach(0x11, () -> wakes[0]++);
        flow.congestionNotified(); // 5 Gbit/s

        assertThat(flow.mayResend()).isTrue();
        flow.resent(4096);
        assertThat(flow.mayResend()).as("the next resend waits for its slot at 5 Gbit/s").isFalse();
        assertThat(flow.mayTransmit()).as("a new packet waits for the slot the resend took").isFalse();
        assertThat(counters.get("jrxe_cc_paced")).isEqualTo(2);

        clock.runFor(7_000); // 4096 bytes at 5 Gbit/s take 6.6 us
        assertThat(wakes[0]).as("the pacer woke the QP").isEqualTo(1);
        assertThat(flow.mayResend()).isTrue();
    }

    @Test
    void aWindowLetsResentPacketsGo() {
        CongestionControl cc = new DeviceWindow(1, clock, counters);
        CongestionControl.Flow flow = cc.attach(0x11, () -> { });
        assertThat(flow.mayTransmit()).isTrue();
        flow.transmitted(64);
        flow.inFlight(1);
        flow.ackRequested(); // as the requester has it: the window refuses the next packet
        assertThat(flow.mayTransmit()).as("a window of one packet is full").isFalse();
        assertThat(flow.mayResend()).as("the packet resent is counted in the window already").isTrue();
    }

    @Test
    void theDeviceWindowStillBoundsWhatIsInFlight() {
        CongestionControl cc = new Dcqcn(DcqcnParameters.DEFAULTS, 1, clock, counters);
        CongestionControl.Flow flow = cc.attach(0x11, () -> { });
        assertThat(flow.mayTransmit()).isTrue();
        flow.transmitted(64);
        flow.inFlight(1);
        flow.ackRequested(); // as the requester has it: the window refuses the next packet
        clock.runFor(1_000); // 64 bytes at the line rate take 52 ns: the pacer has nothing against the next packet
        assertThat(flow.mayTransmit()).as("a window of one packet is full, the rate is the line rate").isFalse();
        assertThat(counters.get("jrxe_cc_paced")).isZero();
    }

    @Test
    void noneIsStillTheDefaultAndIgnoresCnps() {
        NicContext context = new NicContext(DeviceConfig.of("jrxe0", java.net.InetAddress.getLoopbackAddress()));
        CongestionControl cc = context.congestionControl().create(clock, counters);
        assertThat(cc).isInstanceOf(DeviceWindow.class);
        assertThat(cc.name()).isEqualTo("none");
        CongestionControl.Flow flow = cc.attach(0x11, () -> { });
        flow.congestionNotified();
        flow.transmitted(4096);
        assertThat(counters.get("jrxe_cc_cnp_ignored")).isEqualTo(1);
        assertThat(counters.has("jrxe_cc_rate_decreased")).isFalse();
        assertThat(flow.mayTransmit()).as("no rate: a CNP holds nothing back").isTrue();
        assertThat(clock.idle()).as("no timer was set").isTrue();
    }

    @Test
    void partsAreChosenByName() {
        assertThat(CongestionControlChoice.named("dcqcn").create(clock, counters).name()).isEqualTo("dcqcn");
        assertThat(CongestionControlChoice.named("none").create(clock, new CounterRegistry()).name())
                .isEqualTo("none");
        assertThatThrownBy(() -> CongestionControlChoice.named("swift"))
                .hasMessage("no congestion control named 'swift': there are none, dcqcn, timely");
    }
}
