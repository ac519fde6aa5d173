package io.jrxe.tools.soak;

import io.jrxe.wire.port.fault.FaultSpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The soak with every addition to the mix and each NIC doing faults of its own ({@code --faults}) on top of the
 * network's: the faults that found a READ resumed inside itself (RNR NAKs made of ACKs), requests and READ
 * responses duplicated, held and lost, ACKs held past the ACK timeout. Every operation must end once, with the
 * right bytes; none of these faults may fail a pair but a retry running out. The soak's own model must hold
 * too: UC and UD copies held by a NIC arrive within the quarantine, and no window is invalidated while a copy of
 * a READ through it may still come.
 */
class NicFaultsSoakTest {
    private static final Pattern NIC_FAULTS = Pattern.compile("soak: --faults: NIC A did (\\d+) faults, NIC B (\\d+)");

    @ParameterizedTest(name = "seed {0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "3|rnr,dir=recv,p=0.1;dup,dir=send,p=0.03",
        "10|rnr,dir=recv,p=0.1;dup,dir=send,p=0.03",
        "1|loss=0.02,dup=0.02,reorder=0.05:200us;rnr,dir=recv,p=0.05;drop,nth=3,p=0.2;delay:2ms,op=ack,p=0.02",
        "104|dup,op=read,p=0.2;rnr,dir=recv,p=0.1;reorder=0.1:100us",
        "107|drop,op=read-resp,p=0.05;dup,op=read-resp,p=0.05;rnr,dir=recv,p=0.1",
        "111|delay:70ms,op=ack,p=0.01;loss=0.01",
    })
    void everyOperationEndsOnceWithTheRightBytes(long seed, String spec) throws Exception {
        SoakConfig config = SoakConfig.defaults(seed).withOps(3_000)
                .with(List.of("atomic-write", "flush", "mw", "srq", "uc", "ud")).withNicFaults(FaultSpec.parse(spec));
        StringWriter problems = new StringWriter();
        SoakResult result = new SoakRun(config).diagnostics(new PrintWriter(problems, true)).run();

        assertThat(result.mismatches()).as(problems.toString()).isZero();
        assertThat(result.lostCompletions()).as(problems.toString()).isZero();
        assertThat(result.duplicatedCompletions()).as(problems.toString()).isZero();
        assertThat(result.passed()).as(result.summary() + problems).isTrue();
        assertThat(result.ok() + result.expectedFailures()).isEqualTo(3_000);
        Matcher m = NIC_FAULTS.matcher(problems.toString());
        assertThat(m.find()).as(problems.toString()).isTrue();
        assertThat(Long.parseLong(m.group(1)) + Long.parseLong(m.group(2))).as("the NICs' own faults").isGreaterThan(20);
    }
}
