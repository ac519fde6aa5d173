package io.jrxe.rnic.cc;

import io.jrxe.wire.sim.VirtualTime;
import io.jrxe.wire.stats.CounterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CongestionControlChoiceTest {
    private final VirtualTime clock = new VirtualTime();

    private DcqcnParameters dcqcn(String text) {
        return ((Dcqcn) CongestionControlChoice.named(text).create(clock, new CounterRegistry())).parameters();
    }

    private TimelyParameters timely(String text) {
        return ((Timely) CongestionControlChoice.named(text).create(clock, new CounterRegistry())).parameters();
    }

    @Test
    void aNameAloneHasTheDefaults() {
        assertThat(dcqcn("dcqcn")).isEqualTo(DcqcnParameters.DEFAULTS);
        assertThat(dcqcn(" dcqcn: ")).as("an empty list of settings").isEqualTo(DcqcnParameters.DEFAULTS);
        assertThat(timely("timely")).isEqualTo(TimelyParameters.DEFAULTS);
    }

    @Test
    void everyDcqcnSettingIsSetByItsKey() {
        DcqcnParameters p = dcqcn("dcqcn:line_rate=25G,min_rate=10M,g=1/128,alpha_timer=40us,increase_timer=0.3ms,"
                + "byte_counter=64K,fast_recovery=3,ai=20M,hai=200M");
        assertThat(p).isEqualTo(new DcqcnParameters(25_000_000_000L, 10_000_000L, 1.0 / 128, 40_000L, 300_000L,
                65_536L, 3, 20_000_000L, 200_000_000L));
    }

    @Test
    void theConnectXProfileKeepsTheLineRateAndLaterSettingsWin() {
        DcqcnParameters p = dcqcn("dcqcn:line_rate=25G,profile=connectx,ai=10M");
        assertThat(p).isEqualTo(new DcqcnParameters(25_000_000_000L, 1_000_000L, 5.0 / 1024, 1_000L, 300_000L,
                32_767L, 1, 10_000_000L, 50_000_000L));
        assertThat(dcqcn("dcqcn:profile=connectx,profile=paper")).isEqualTo(DcqcnParameters.DEFAULTS);
    }

    @Test
    void everyTimelySettingIsSetByItsKey() {
        TimelyParameters p = timely("timely:line_rate=40G,min_rate=1G,alpha=0.5,beta=1/2,delta=20M,t_low=30us,"
                + "t_high=1ms,min_rtt=10us,hai_after=3");
        assertThat(p).isEqualTo(new TimelyParameters(40_000_000_000L, 1_000_000_000L, 0.5, 0.5, 20_000_000L, 30_000L,
                1_000_000L, 10_000L, 3));
    }

    @Test
    void settingsStartFromTheCallersBase() {
        CongestionControl cc = CongestionControlChoice.parse("dcqcn:ai=1M",
                DcqcnParameters.DEFAULTS.withLineRate(1_000_000_000L), TimelyParameters.DEFAULTS)
                .create(clock, new CounterRegistry());
        assertThat(((Dcqcn) cc).parameters().lineRateBitsPerSecond()).isEqualTo(1_000_000_000L);
        assertThat(((Dcqcn) cc).parameters().additiveIncreaseBitsPerSecond()).isEqualTo(1_000_000L);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "swift|no congestion control named 'swift': there are none, dcqcn, timely",
            "none:window=4|'none:window=4': none has no settings",
            "dcqcn:ai|'dcqcn:ai': 'ai' is no key=value (settings follow the name and a colon, separated by commas: dcqcn:ai=10M,hai=50M)",
            "dcqcn:ai=1M,,hai=2M|'dcqcn:ai=1M,,hai=2M': '' is no key=value (settings follow the name and a colon, separated by commas: dcqcn:ai=10M,hai=50M)",
            "dcqcn:rai=1M|'dcqcn:rai=1M': DCQCN has no setting 'rai': there are profile, line_rate, min_rate, g, alpha_timer, increase_timer, byte_counter, fast_recovery, ai, hai",
            "dcqcn:g=2|'dcqcn:g=2': DCQCN: a gain g of 2.0: it must be above 0 and below 1",
            "dcqcn:g=1/0|'dcqcn:g=1/0': '1/0' is not a number: write a decimal (0.875) or a fraction (1/256)",
            "dcqcn:ai=fast|'dcqcn:ai=fast': 'fast' is not a rate: write bits per second with K, M, G or T for powers of 1000 (e.g. 25G, 100M), above 0 and at most 1000T",
            "dcqcn:alpha_timer=55|'dcqcn:alpha_timer=55': '55' is not a duration: write a number with ns, us, ms or s (e.g. 2us, 10ms), at most an hour",
            "dcqcn:fast_recovery=-1|'dcqcn:fast_recovery=-1': '-1' is not a count: write a whole number from 0 up",
            "dcqcn:profile=mellanox|'dcqcn:profile=mellanox': DCQCN: profile=mellanox: paper or connectx",
            "timely:t_high=10us|'timely:t_high=10us': TIMELY: a T_high of 10000 ns: it must be above T_low (50000 ns)",
            "timely:g=1/256|'timely:g=1/256': TIMELY has no setting 'g': there are line_rate, min_rate, alpha, beta, delta, t_low, t_high, min_rtt, hai_after",
    })
    void aSettingThatCannotBeReadIsExplainedInOneLine(String text, String message) {
        assertThatThrownBy(() -> CongestionControlChoice.named(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }
}
