package io.jrxe.rnic.device;

import org.junit.jupiter.api.Test;

import io.jrxe.wire.stats.CounterRegistry;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The counters carry rxe's hw_counters names (what /sys/class/infiniband/rxe0/ports/1/hw_counters
 * lists), first and in rxe's order, then jrxe's own, each prefixed jrxe_.
 */
class CountersTest {
    private static final List<String> RXE_HW_COUNTERS = List.of(
            "sent_pkts", "rcvd_pkts", "duplicate_request", "out_of_seq_request", "rcvd_rnr_err", "send_rnr_err",
            "rcvd_seq_err", "ack_deferred", "retry_exceeded_err", "retry_rnr_exceeded_err", "completer_retry_err",
            "send_err", "link_downed", "rdma_sends", "rdma_recvs", "sent_bytes", "rcvd_bytes");

    @Test
    void theRegistryStartsWithRxesNamesAllZero() {
        Map<String, Long> snapshot = registered(new Counters());
        assertThat(snapshot.keySet()).startsWith(RXE_HW_COUNTERS.toArray(String[]::new));
        assertThat(snapshot.values()).allMatch(v -> v == 0);
        assertThat(snapshot).hasSize(Counter.values().length);
        assertThat(snapshot.keySet().stream().skip(RXE_HW_COUNTERS.size())).allMatch(name -> name.startsWith("jrxe_"));
    }

    @Test
    void incrementsShowInTheRegistry() {
        Counters counters = new Counters();
        counters.increment(Counter.SENT_PKTS);
        counters.increment(Counter.SENT_PKTS);
        counters.add(Counter.RDMA_RECVS, 40);
        counters.increment(Counter.DROP_BAD_ICRC);
        assertThat(counters.get(Counter.SENT_PKTS)).isEqualTo(2);
        Map<String, Long> snapshot = registered(counters);
        assertThat(snapshot).containsEntry("sent_pkts", 2L).containsEntry("rdma_recvs", 40L)
                .containsEntry("jrxe_drop_bad_icrc", 1L).containsEntry("rcvd_pkts", 0L);
    }

    private static Map<String, Long> registered(Counters counters) {
        CounterRegistry registry = new CounterRegistry();
        counters.registerIn(registry);
        return registry.snapshot();
    }

    @Test
    void everyLabelIsDistinct() {
        assertThat(List.of(Counter.values())).extracting(Counter::label).doesNotHaveDuplicates();
    }
}
