package io.jrxe.tools.conformance;

import io.jrxe.verbs.QpState;
import io.jrxe.wire.header.NakCode;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.port.PeerAddress;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;

import static io.jrxe.tools.conformance.TargetLayout.WRITE_AT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The runner fails a case whose target answers otherwise than expected: cases written with a wrong expectation
 * (an ACK where jrxe rightly NAKs, silence where it answers, a target check that does not hold) against the live
 * in-process target. So the suite cannot pass when a target lacks the behaviour a case checks.
 */
class CaseRunnerTest {
    private static InProcessTarget target;
    private static TesterPort port;
    private static CaseRunner runner;

    @BeforeAll
    static void start() throws Exception {
        target = new InProcessTarget(InetAddress.getByName(ConformanceCommand.TARGET_ADDRESS), null);
        PeerAddress self = PeerAddress.of("127.0.77.2");
        PeerAddress third = PeerAddress.of("127.0.77.3");
        port = new TesterPort(self, third, new UdpCarriage(self, third), false, new PacketLog(null));
        runner = new CaseRunner(target, port, self.gid(), 100);
    }

    @AfterAll
    static void stop() {
        port.close();
        target.close();
    }

    @Test
    void aCaseWithTheRightExpectationPasses() {
        CaseResult r = runner.run(ConformanceCase.of("T-1", "t", "bogus key", Reference.IBTA)
                .step(PsnCases.write8(0).key(KeyChoice.BOGUS), Expect.nak(0, NakCode.REMOTE_ACCESS_ERROR)).state(QpState.ERR).build());
        assertThat(r.verdict()).as(r.toString()).isEqualTo(CaseResult.Verdict.PASS);
    }

    @Test
    void anAckExpectedWhereTheTargetNaksFails() {
        CaseResult r = runner.run(ConformanceCase.of("T-2", "t", "wrong expectation", Reference.IBTA)
                .step(PsnCases.write8(0).key(KeyChoice.BOGUS), Expect.ack(0)).build());
        assertThat(r.verdict()).isEqualTo(CaseResult.Verdict.FAIL);
        assertThat(r.problem()).isEqualTo("NAK remote access error instead of ACK credits=invalid");
        assertThat(r.observed()).isEqualTo("NAK remote access error +0");
    }

    @Test
    void silenceExpectedWhereTheTargetAnswersFails() {
        CaseResult r = runner.run(ConformanceCase.of("T-3", "t", "silence expected", Reference.IBTA)
                .silent(PacketRecipe.send(Opcode.RC_SEND_ONLY, 8)).build());
        assertThat(r.verdict()).isEqualTo(CaseResult.Verdict.FAIL);
        assertThat(r.problem()).isEqualTo("an answer where silence was expected");
    }

    /** A packet the tester's kernel refuses (here a datagram over UDP's 65507-byte limit) fails its case, not as silence. */
    @Test
    void aPacketTheKernelRefusesFailsTheCaseWithItsReason() {
        CaseResult r = runner.run(ConformanceCase.of("T-5", "t", "too large to send", Reference.IBTA)
                .silent(PacketRecipe.send(Opcode.RC_SEND_ONLY, 70_000)).build());
        assertThat(r.verdict()).isEqualTo(CaseResult.Verdict.FAIL);
        assertThat(r.observed()).isEqualTo("not sent");
        assertThat(r.problem()).startsWith("the kernel refused the tester's 70016-byte datagram to 127.0.77.1: ");
    }

    @Test
    void aTargetCheckThatDoesNotHoldFails() {
        CaseResult r = runner.run(ConformanceCase.of("T-4", "t", "memory expected written", Reference.IBTA)
                .step(PsnCases.write8(0).key(KeyChoice.BOGUS), Expect.nak(0, NakCode.REMOTE_ACCESS_ERROR))
                .memory(WRITE_AT, 8, 0x5A).counter("jrxe_drop_bad_icrc", 1).build());
        assertThat(r.verdict()).isEqualTo(CaseResult.Verdict.FAIL);
        assertThat(r.problem()).isEqualTo("in the target: byte 0 at 4096 is 0x00 instead of 8 bytes of 0x5a at 4096");
        assertThat(r.observed()).contains("jrxe_drop_bad_icrc +0");
    }
}
