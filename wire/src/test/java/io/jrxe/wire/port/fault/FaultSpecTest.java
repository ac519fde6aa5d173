package io.jrxe.wire.port.fault;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The grammar of --faults: what each clause means, and a one-line error that names the bad part for each mistake. */
class FaultSpecTest {
    @Test
    void ratesApplyToBothDirectionsUnlessADirectionIsGiven() {
        FaultSpec s = FaultSpec.parse("loss=0.01,dup=0.005,reorder=0.01:200us,delay=50us,corrupt=0.001,seed=7");
        assertThat(s.seed()).isEqualTo(7);
        assertThat(s.send()).isEqualTo(new FaultRates(0.01, 0.005, 0.01, 200_000, 50_000, 0.001));
        assertThat(s.receive()).isEqualTo(s.send());
        assertThat(s.rules()).isEmpty();

        FaultSpec one = FaultSpec.parse("loss=0.1,dir=recv; dup=0.2,dir=send");
        assertThat(one.receive().loss()).isEqualTo(0.1);
        assertThat(one.receive().duplicate()).isZero();
        assertThat(one.send().duplicate()).isEqualTo(0.2);
        assertThat(one.send().loss()).isZero();
        assertThat(one.seed()).isZero();
    }

    @Test
    void theLongestHoldOfADirectionIsItsDelayAndReorderingOrItsLongestDelayRule() {
        FaultSpec spec = FaultSpec.parse("delay=1ms,reorder=0.1:200us,dir=send;delay:5ms,op=ack,dir=recv;delay:2ms,op=ack,dir=recv");
        assertThat(spec.longestHoldNanos(FaultDirection.SEND)).isEqualTo(1_200_000);
        assertThat(spec.longestHoldNanos(FaultDirection.RECEIVE)).isEqualTo(5_000_000);
        assertThat(FaultSpec.NONE.longestHoldNanos(FaultDirection.SEND)).isZero();
    }

    @Test
    void aReorderWithoutATimeHoldsUpTo100us() {
        assertThat(FaultSpec.parse("reorder=0.5").send().reorderNanos()).isEqualTo(100_000);
    }

    @Test
    void rulesTakeAnActionAndSelectors() {
        FaultSpec s = FaultSpec.parse("seed=3; drop,nth=3; delay:5ms,op=ack,dir=recv; rnr:14,count=2; "
                + "truncate:8,op=RC_RDMA_WRITE_MIDDLE,qp=0x12,p=0.5; dup,op=read-resp; corrupt,op=send,count=1");
        assertThat(s.seed()).isEqualTo(3);
        assertThat(s.send().any()).isFalse();
        assertThat(s.rules()).hasSize(6);
        FaultRule drop = s.rules().get(0);
        assertThat(drop.action()).isEqualTo(FaultAction.DROP);
        assertThat(drop.nth()).isEqualTo(3);
        assertThat(drop.direction()).isEqualTo(FaultDirection.SEND);
        assertThat(drop.text()).isEqualTo("rule 1 'drop,nth=3'");
        FaultRule delay = s.rules().get(1);
        assertThat(delay.argument()).isEqualTo(5_000_000);
        assertThat(delay.direction()).isEqualTo(FaultDirection.RECEIVE);
        assertThat(delay.opcodeMask()[0x11]).isTrue();
        assertThat(delay.opcodeMask()[0x06]).isFalse();
        FaultRule rnr = s.rules().get(2);
        assertThat(rnr.argument()).isEqualTo(14);
        assertThat(rnr.count()).isEqualTo(2);
        assertThat(rnr.opcodeMask()[0x11]).as("rnr applies to ACKs").isTrue();
        assertThat(rnr.opcodeMask()[0x04]).isFalse();
        FaultRule truncate = s.rules().get(3);
        assertThat(truncate.qpn()).isEqualTo(0x12);
        assertThat(truncate.probability()).isEqualTo(0.5);
        assertThat(truncate.opcodeMask()[0x07]).isTrue();
        assertThat(truncate.opcodeMask()[0x27]).isFalse();
        assertThat(s.rules().get(4).opcodeMask()[0x0E]).isTrue();
        assertThat(s.rules().get(5).opcodeMask()[0x24]).as("op=send takes UC's too").isTrue();
        assertThat(s.any(FaultDirection.RECEIVE)).isTrue();
    }

    @Test
    void markIsForPacketsReceived() {
        FaultSpec s = FaultSpec.parse("mark,p=0.1,op=write");
        FaultRule mark = s.rules().get(0);
        assertThat(mark.action()).isEqualTo(FaultAction.MARK);
        assertThat(mark.direction()).as("without a dir").isEqualTo(FaultDirection.RECEIVE);
        assertThat(mark.probability()).isEqualTo(0.1);
        assertThat(FaultSpec.parse("mark,dir=recv").rules().get(0).direction()).isEqualTo(FaultDirection.RECEIVE);
        assertThat(s.any(FaultDirection.SEND)).isFalse();
    }

    @Test
    void noneAndTheEmptyTextAreNoFaults() {
        assertThat(FaultSpec.parse("none").none()).isTrue();
        assertThat(FaultSpec.parse(" ").none()).isTrue();
        assertThat(FaultSpec.parse("seed=5").none()).isTrue();
        assertThat(FaultSpec.parse("loss=0").none()).isTrue();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "loss=2                 | clause 1 'loss=2': loss=2: a probability from 0 to 1, as 0.01",
        "loss=abc               | clause 1 'loss=abc': loss=abc: not a number; a probability from 0 to 1, as 0.01",
        "delay=50               | clause 1 'delay=50': delay=50: a time is a number and its unit (ns, us, ms or s), as 200us",
        "delay=11s              | clause 1 'delay=11s': delay=11s: a time from 0 to 10s",
        "reorder=0.1:0us        | clause 1 'reorder=0.1:0us': reorder=0.1:0us: a reorder's hold must be longer than 0",
        "lose=0.1               | clause 1 'lose=0.1': unknown rate 'lose' (loss, dup, reorder, delay, corrupt, seed, dir); a rule starts with its action (drop, dup, corrupt, delay:TIME, truncate:BYTES, rnr[:TIMER], mark)",
        "loss=0.1,loss=0.2      | clause 1 'loss=0.1,loss=0.2': loss given twice",
        "loss=0.1;loss=0.2      | clause 2 'loss=0.2': the rates of send are given twice",
        "seed=1;seed=2          | clause 2 'seed=2': seed given twice",
        "seed=x                 | clause 1 'seed=x': seed=x: not a whole number; a whole number",
        "dir=up,loss=0.1        | clause 1 'dir=up,loss=0.1': dir=up: a direction is send, recv or both",
        "dir=send               | clause 1 'dir=send': dir applies to rates, and the clause has none",
        "loss=0.1,drop          | clause 1 'loss=0.1,drop': 'drop' is no key=value; a rates clause has only key=value items (loss, dup, reorder, delay, corrupt, seed, dir); a rule's action goes first in a clause of its own",
        "loss=0.1;;dup=0.1      | clause 2 is empty (clauses are separated by ';')",
        "loss=0.1,              | clause 1 'loss=0.1,': an empty item (items are separated by ',')",
        "drp,nth=3              | clause 1 'drp,nth=3': 'drp' is neither a rule's action (drop, dup, corrupt, delay:TIME, truncate:BYTES, rnr[:TIMER], mark) nor a rate (key=value: loss, dup, reorder, delay, corrupt, seed, dir)",
        "delay,op=ack           | clause 1 'delay,op=ack': delay: delay needs a time, as in delay:5ms",
        "truncate               | clause 1 'truncate': truncate: truncate needs the bytes to cut, as in truncate:8",
        "truncate:0             | clause 1 'truncate:0': truncate:0: a number of bytes from 1 to 4096",
        "rnr:32                 | clause 1 'rnr:32': rnr:32: an RNR timer value from 0 to 31 (IBTA's encoding: 1 is 0.01 ms, 14 is 1 ms, 0 is 655 ms)",
        "drop:3                 | clause 1 'drop:3': drop:3: drop takes no ':' value",
        "drop,nth=0             | clause 1 'drop,nth=0': nth=0: a packet's place in its message, from 1",
        "drop,op=writ           | clause 1 'drop,op=writ': op=writ: no such opcode or group (an opcode's name, as RC_RDMA_WRITE_MIDDLE, or a group: send, write, read, read-resp, ack, atomic, atomic-ack, flush, cnp)",
        "drop,qp=0x1000000      | clause 1 'drop,qp=0x1000000': qp=0x1000000: a QP number from 0 to 0xffffff",
        "drop,dir=both          | clause 1 'drop,dir=both': dir=both: a direction is send or recv",
        "drop,p=1.5             | clause 1 'drop,p=1.5': p=1.5: a probability from 0 to 1, as 0.01",
        "drop,count=0           | clause 1 'drop,count=0': count=0: how many times at most, from 1",
        "drop,when=now          | clause 1 'drop,when=now': unknown selector 'when' (nth, op, qp, dir, p, count)",
        "drop,nth=2,nth=3       | clause 1 'drop,nth=2,nth=3': nth given twice",
        "drop,dup               | clause 1 'drop,dup': 'dup' is no selector=value (nth, op, qp, dir, p, count); one action per rule, each rule in a clause of its own",
        "rnr,op=send            | clause 1 'rnr,op=send': rnr turns ACKs into RNR NAKs: leave op out or say op=ack",
        "mark,dir=send          | clause 1 'mark,dir=send': mark changes how a packet arrives (a switch's mark): it applies to packets received, so dir=send cannot be",
        "mark:3                 | clause 1 'mark:3': mark:3: mark takes no ':' value",
    })
    void everyMistakeIsOneLineThatNamesIt(String text, String message) {
        assertThatThrownBy(() -> FaultSpec.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message).hasNoCause();
    }
}
