package io.jrxe.verbs.sim;

import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.WrOpcode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * UC's message operations (SEND and RDMA WRITE, with and without immediate) at every size up to 8 MiB. On the
 * shared-memory wire the largest is 4 MiB: UC resends nothing, and a message of 8 MiB in 1 KB packets is more than the
 * receiver's ring (8 MiB with the records' headers) holds when the sender's NIC puts it out in one turn, so its tail
 * is lost as a full socket buffer would lose it.
 */
class UcMessageSizesTest {
    private static final long LARGEST_ON_SHM = 4L << 20;

    static Stream<Arguments> everyOpAndSize() {
        List<Arguments> all = new ArrayList<>();
        for (WrOpcode op : new WrOpcode[] {WrOpcode.SEND, WrOpcode.SEND_WITH_IMM, WrOpcode.RDMA_WRITE,
                WrOpcode.RDMA_WRITE_WITH_IMM}) {
            for (long size : RcMessageSizesTest.sizes(1024)) {
                all.add(Arguments.of(op, Mtu.MTU_1024, FixtureWire.ON_SHM ? Math.min(size, LARGEST_ON_SHM) : size));
            }
            for (long size : new long[] {255, 256, 257}) {
                all.add(Arguments.of(op, Mtu.MTU_256, size));
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "UC {0} of {2} bytes, path MTU {1}")
    @MethodSource("everyOpAndSize")
    void messageArrivesWhole(WrOpcode op, Mtu mtu, long size) throws Exception {
        RcMessageSizesTest.transfer(QpType.UC, op, mtu, size);
    }
}
