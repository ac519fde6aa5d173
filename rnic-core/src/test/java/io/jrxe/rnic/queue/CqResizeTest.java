package io.jrxe.rnic.queue;

import io.jrxe.rnic.Nics;
import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicExecutor;
import io.jrxe.rnic.NicResources;
import io.jrxe.rnic.RnicException;
import io.jrxe.verbs.DeviceAttributes;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.WorkCompletion;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * ibv_resize_cq: the completions waiting to be polled survive, in order and whole, even when the
 * ring had wrapped; a size smaller than what is waiting is refused (as rxe refuses cqe < count),
 * and so is a size the device does not allow.
 */
class CqResizeTest {
    private final NicResources rnic;

    CqResizeTest() throws Exception {
        rnic = Nics.resources(DeviceConfig.of("jrxe0", InetAddress.getByName("127.0.0.1"))
                .withAttributes(DeviceAttributes.builder().maxCqe(64).build()), NicExecutor.INLINE);
    }

    @Test
    void growingKeepsTheWaitingCompletions() throws RnicException {
        CompletionQueue cq = rnic.createCq(8, null);
        for (long id = 0; id < 5; id++) {
            Completions.push(cq, id);
        }
        WorkCompletion[] out = Completions.batch(16);
        assertThat(cq.poll(out, 2)).isEqualTo(2);
        rnic.resizeCq(cq, 16);
        assertThat(cq.capacity()).isEqualTo(16);
        assertThat(cq.depth()).isEqualTo(3);
        for (long id = 5; id < 18; id++) {
            assertThat(Completions.push(cq, id)).as("room for %d after growing", id).isTrue();
        }
        assertThat(cq.poll(out, 16)).isEqualTo(16);
        for (int i = 0; i < 16; i++) {
            assertThat(Completions.intact(out[i], 2 + i)).as("%s", out[i]).isTrue();
        }
    }

    @Test
    void aWrappedRingIsUnwrappedInOrder() throws RnicException {
        CompletionQueue cq = rnic.createCq(4, null);
        WorkCompletion[] out = Completions.batch(8);
        for (long id = 0; id < 3; id++) {
            Completions.push(cq, id);
        }
        cq.poll(out, 3);
        for (long id = 3; id < 7; id++) {
            Completions.push(cq, id); // slots 3, 0, 1, 2
        }
        rnic.resizeCq(cq, 8);
        rnic.resizeCq(cq, 4);
        assertThat(cq.poll(out, 8)).isEqualTo(4);
        for (int i = 0; i < 4; i++) {
            assertThat(Completions.intact(out[i], 3 + i)).as("%s", out[i]).isTrue();
        }
    }

    @Test
    void aSizeSmallerThanTheBacklogIsRefused() throws RnicException {
        CompletionQueue cq = rnic.createCq(8, null);
        for (long id = 0; id < 4; id++) {
            Completions.push(cq, id);
        }
        for (int entries : new int[] {1, 2, 3}) {
            RnicException e = catchThrowableOfType(RnicException.class, () -> rnic.resizeCq(cq, entries));
            assertThat(e).as("resize to %d with 4 waiting", entries).isNotNull();
            assertThat(e.errno()).isEqualTo(Errno.EINVAL);
            assertThat(e.getMessage()).isEqualTo(String.format(
                    "resize %s to %d entries: 4 completions are waiting to be polled", cq, entries));
            assertThat(cq.capacity()).isEqualTo(8);
            assertThat(cq.depth()).isEqualTo(4);
        }
        rnic.resizeCq(cq, 4);
        assertThat(cq.capacity()).isEqualTo(4);
        WorkCompletion[] out = Completions.batch(4);
        assertThat(cq.poll(out, 4)).isEqualTo(4);
        assertThat(Completions.intact(out[3], 3)).isTrue();
    }

    @Test
    void aSizeOutsideTheDevicesLimitIsRefused() throws RnicException {
        CompletionQueue cq = rnic.createCq(8, null);
        for (int entries : new int[] {0, 65}) {
            RnicException e = catchThrowableOfType(RnicException.class, () -> rnic.resizeCq(cq, entries));
            assertThat(e.getMessage()).isEqualTo("a CQ holds 1..64 entries (max_cqe), not " + entries);
        }
        rnic.resizeCq(cq, 64);
        assertThat(cq.capacity()).isEqualTo(64);
    }

    @Test
    void aDestroyedCqCannotBeResized() throws RnicException {
        CompletionQueue cq = rnic.createCq(8, null);
        rnic.destroyCq(cq);
        RnicException e = catchThrowableOfType(RnicException.class, () -> rnic.resizeCq(cq, 16));
        assertThat(e.getMessage()).isEqualTo(cq + " does not belong to device jrxe0 or was destroyed");
    }
}
