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

/** UC's message operations (SEND and RDMA WRITE, with and without immediate) at every size up to 8 MiB. */
class UcMessageSizesTest {
    static Stream<Arguments> everyOpAndSize() {
        List<Arguments> all = new ArrayList<>();
        for (WrOpcode op : new WrOpcode[] {WrOpcode.SEND, WrOpcode.SEND_WITH_IMM, WrOpcode.RDMA_WRITE,
                WrOpcode.RDMA_WRITE_WITH_IMM}) {
            for (long size : RcMessageSizesTest.sizes(1024)) {
                all.add(Arguments.of(op, Mtu.MTU_1024, size));
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
