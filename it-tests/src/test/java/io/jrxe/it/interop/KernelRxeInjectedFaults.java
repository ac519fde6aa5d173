package io.jrxe.it.interop;

import io.jrxe.it.interop.Pairings.Gids;
import io.jrxe.it.interop.Pairings.Pair;
import io.jrxe.it.interop.Pairings.Server;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A jrxe client that misbehaves on purpose ({@code --faults}) against perftest on rxe0: what it drops, holds or
 * spoils, and how rxe0 recovers, read from both sides' counters. Each case completes on both sides with perftest's
 * result rows; the case's fault happened at jrxe, rxe0's counter of its reaction moved, and jrxe's counter of what it
 * met moved. The lines it prints ("interop: fault ...") are the table in docs/interop.md. A subclass per lab release.
 */
@ExtendWith(LabExtension.class)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
abstract class KernelRxeInjectedFaults {
    private static final int MESSAGES = 50;

    /** A fault, the perftest it runs under, and the counters that must show it and the recovery. */
    enum Case {
        /** The third packet of each of three WRITEs is lost: rxe0 sees a PSN gap and NAKs it (sequence error). */
        WRITE_PACKET_LOST("write", "drop,nth=3,op=write,count=3", "jrxe_fault_tx_dropped", "out_of_seq_request", "rcvd_seq_err"),
        /** A packet's bit flipped after its ICRC: rxe0 drops it, unseen, and NAKs the gap the next packet shows. */
        WRITE_PACKET_CORRUPTED("write", "corrupt,nth=2,op=write,count=2", "jrxe_fault_tx_corrupted", "out_of_seq_request",
                "rcvd_seq_err"),
        /** READ responses lost on their way to jrxe: jrxe asks again from the gap, rxe0 reads again (a duplicate). */
        READ_RESPONSE_LOST("read", "drop,nth=2,op=read-resp,dir=recv,count=2", "jrxe_fault_rx_dropped", "duplicate_request",
                "completer_retry_err"),
        /** Atomic ACKs lost: jrxe sends the atomic again at its timeout, rxe0 answers from its saved reply. */
        ATOMIC_ACK_LOST("atomic", "drop,op=atomic-ack,dir=recv,count=2", "jrxe_fault_rx_dropped", "duplicate_request",
                "completer_retry_err"),
        /** An ACK held past jrxe's timeout: jrxe sends again, rxe0 acknowledges the duplicates again. */
        SEND_ACK_LATE("send", "delay:2s,op=ack,dir=recv,count=1", "jrxe_fault_rx_delayed", "duplicate_request",
                "completer_retry_err");

        final String test;
        final String faults;
        final String jrxeFault;
        final String rxeReaction;
        final String jrxeReaction;

        Case(String test, String faults, String jrxeFault, String rxeReaction, String jrxeReaction) {
            this.test = test;
            this.faults = faults;
            this.jrxeFault = jrxeFault;
            this.rxeReaction = rxeReaction;
            this.jrxeReaction = jrxeReaction;
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Case.class)
    void rxe0RecoversFromWhatJrxeDoes(Case c, Lab lab) throws Exception {
        String counter = "hw_counters/" + c.rxeReaction;
        long before = lab.guestCounter(counter);
        Pair p = Pairings.bandwidth(lab, c.test, Server.KERNEL, 18740 + c.ordinal(), Gids.IPV6, MESSAGES, "",
                "--faults", c.faults, "--counters");
        long reaction = lab.guestCounter(counter) - before;
        long fault = jrxeCounter(p, c.jrxeFault);
        long met = jrxeCounter(p, c.jrxeReaction);
        System.out.printf("interop: fault %s (%s-bw, --faults '%s'): jrxe %s=%d, rxe0 %s +%d, jrxe %s=%d%n", c, c.test,
                c.faults, c.jrxeFault, fault, c.rxeReaction, reaction, c.jrxeReaction, met);
        assertThat(fault).as("the fault was done: %s", p.jrxe()).isPositive();
        assertThat(reaction).as("rxe0's %s moved: %s", c.rxeReaction, p.kernel()).isPositive();
        assertThat(met).as("jrxe's %s: %s", c.jrxeReaction, p.jrxe()).isPositive();
    }

    /** A counter of jrxe0's --counters line (which names only those not zero). */
    private static long jrxeCounter(Pair p, String name) {
        String out = p.jrxe().output();
        assertThat(out).as("%s", p.jrxe()).contains("counters of jrxe0:");
        Matcher m = Pattern.compile("counters of jrxe0:.* " + Pattern.quote(name) + "=(\\d+)\\b").matcher(out);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }
}
