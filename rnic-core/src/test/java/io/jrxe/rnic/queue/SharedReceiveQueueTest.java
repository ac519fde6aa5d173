package io.jrxe.rnic.queue;

import io.jrxe.rnic.Nics;
import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicExecutor;
import io.jrxe.rnic.NicResources;
import io.jrxe.rnic.RnicException;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.DeviceAttributes;
import io.jrxe.rnic.memory.ProtectionDomain;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * SRQs: creation within the device's limits, and the limit event, which fires once when the
 * number of posted receives falls below the armed limit and then stays disarmed until armed again.
 */
class SharedReceiveQueueTest {
    private final NicResources rnic;
    private final ProtectionDomain pd;

    SharedReceiveQueueTest() throws Exception {
        rnic = Nics.resources(DeviceConfig.of("jrxe0", InetAddress.getByName("127.0.0.1"))
                .withAttributes(DeviceAttributes.builder().maxSrqWr(16).maxSrqSge(4).build()), NicExecutor.INLINE);
        pd = rnic.allocatePd();
    }

    @Test
    void creationChecksTheWrAndSgeLimits() throws RnicException {
        record Bad(int wr, int sge, String message) { }
        for (Bad bad : new Bad[] {
            new Bad(0, 1, "an SRQ holds 1..16 WRs (max_srq_wr), not 0"),
            new Bad(17, 1, "an SRQ holds 1..16 WRs (max_srq_wr), not 17"),
            new Bad(4, 0, "an SRQ WR has 1..4 SGEs (max_srq_sge), not 0"),
            new Bad(4, 5, "an SRQ WR has 1..4 SGEs (max_srq_sge), not 5"),
        }) {
            RnicException e = catchThrowableOfType(RnicException.class, () -> rnic.createSrq(pd, bad.wr(), bad.sge()));
            assertThat(e.errno()).isEqualTo(Errno.EINVAL);
            assertThat(e.getMessage()).isEqualTo(bad.message());
        }
        SharedReceiveQueue srq = rnic.createSrq(pd, 16, 4);
        assertThat(srq.maxWr()).isEqualTo(16);
        assertThat(srq.maxSge()).isEqualTo(4);
        assertThat(srq.queue().claim().sgl().capacity()).isEqualTo(4);
        assertThat(srq.pd()).isSameAs(pd);
        assertThat(pd.holders().count()).as("the SRQ holds its PD").isEqualTo(1);
    }

    @Test
    void theLimitEventFiresOnceThenDisarms() throws RnicException {
        SharedReceiveQueue srq = rnic.createSrq(pd, 8, 1);
        post(srq, 6);
        srq.arm(4);
        assertThat(srq.limit()).isEqualTo(4);
        assertThat(srq.limitReached()).as("6 posted").isFalse();
        consume(srq);
        assertThat(srq.limitReached()).as("5 posted").isFalse();
        consume(srq);
        assertThat(srq.limitReached()).as("4 posted: not yet below").isFalse();
        consume(srq);
        assertThat(srq.limitReached()).as("3 posted: below 4").isTrue();
        assertThat(srq.limit()).as("disarmed").isZero();
        assertThat(srq.limitReached()).isFalse();
        consume(srq);
        assertThat(srq.limitReached()).as("2 posted, disarmed").isFalse();

        srq.arm(3);
        assertThat(srq.limitReached()).as("armed while already below").isTrue();
        assertThat(srq.limitReached()).isFalse();
    }

    @Test
    void zeroDisarmsAndTheLimitCannotExceedTheQueue() throws RnicException {
        SharedReceiveQueue srq = rnic.createSrq(pd, 8, 1);
        srq.arm(2);
        srq.arm(0);
        assertThat(srq.limitReached()).isFalse();
        assertThatThrownBy(() -> srq.arm(9)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("SRQ limit 9 is out of range 0..8");
        assertThatThrownBy(() -> srq.arm(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("SRQ limit -1 is out of range 0..8");
    }

    private static void post(SharedReceiveQueue srq, int n) {
        for (int i = 0; i < n; i++) {
            srq.queue().claim().wrId(i);
        }
        srq.queue().publish();
    }

    private static void consume(SharedReceiveQueue srq) {
        assertThat(srq.queue().peek()).isNotNull();
        srq.queue().remove();
    }
}
