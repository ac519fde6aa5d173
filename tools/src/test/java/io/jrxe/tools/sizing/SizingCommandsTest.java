package io.jrxe.tools.sizing;

import io.jrxe.tools.common.InProcess;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** `jrxe mtt-size` and `jrxe queue-size` run in-process: the README's numbers, the arithmetic shown, and bad input. */
class SizingCommandsTest {
    @Test
    void aGibibyteInFourKibibytePagesWithAMebibyteCache() {
        InProcess r = InProcess.run("mtt-size", "--buffer", "1G", "--page", "4K", "--entry", "8", "--cache", "1M");
        assertThat(r.status()).as(r.toString()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(r.lines()).containsExactly(
                "MTT of a 1 GiB buffer in 4 KiB pages, 8 B per entry",
                "  pages      = 1 GiB / 4 KiB = 262,144",
                "  table size = 262,144 entries x 8 B = 2,097,152 B (2 MiB)",
                "  cache      = 1 MiB / 8 B = 131,072 entries",
                "  it maps    = 131,072 x 4 KiB = 536,870,912 B (512 MiB), 50% of the buffer");
    }

    @Test
    void withoutACacheOnlyPagesAndTableAreShownAndDefaultsAreFourKibibytePagesOfEightByteEntries() {
        InProcess r = InProcess.run("mtt-size", "--buffer", "1G");
        assertThat(r.status()).as(r.toString()).isZero();
        assertThat(r.out()).contains("pages      = 1 GiB / 4 KiB = 262,144", "= 2,097,152 B (2 MiB)")
                .doesNotContain("cache");
    }

    @Test
    void aCacheLargerThanTheTableMapsTheWholeBuffer() {
        InProcess r = InProcess.run("mtt-size", "--buffer", "1M", "--cache", "4M");
        assertThat(r.out()).contains("pages      = 1 MiB / 4 KiB = 256", "it maps    = the whole table: all 1 MiB");
    }

    @Test
    void aBufferThatIsNotAWholeNumberOfPagesRoundsUp() {
        InProcess r = InProcess.run("mtt-size", "--buffer", "10000", "--page", "4K");
        assertThat(r.out()).contains("pages      = ceil(10,000 B / 4 KiB) = 3", "table size = 3 entries x 8 B = 24 B");
    }

    @Test
    void theQueuesWithACqeForEveryWorkRequest() {
        InProcess r = InProcess.run("queue-size", "--send-wr", "128", "--recv-wr", "64", "--wqe", "64", "--cqe", "32");
        assertThat(r.status()).as(r.toString()).isZero();
        assertThat(r.lines()).containsExactly(
                "Queues: 128 send WRs, 64 receive WRs",
                "  send queue    = 128 WQEs x 64 B = 8,192 B (8 KiB)",
                "  receive queue = 64 WQEs x 64 B = 4,096 B (4 KiB)",
                "  CQ            = (128 + 64) CQEs x 32 B = 6,144 B (6 KiB)   (one CQE per WR; --cq-entries to choose)",
                "  total         = 18,432 B (18 KiB)");
    }

    @Test
    void mttSizeSizesTheQueuesTooWhenGivenTheirOptionsAndCqEntriesCanBeChosen() {
        InProcess r = InProcess.run("mtt-size", "--buffer", "1G", "--page", "4K", "--entry", "8",
                "--send-wr", "128", "--recv-wr", "64", "--wqe", "64", "--cqe", "32", "--cq-entries", "256");
        assertThat(r.status()).as(r.toString()).isZero();
        assertThat(r.out()).contains("pages      = 1 GiB / 4 KiB = 262,144", "send queue    = 128 WQEs x 64 B = 8,192 B (8 KiB)",
                "receive queue = 64 WQEs x 64 B = 4,096 B (4 KiB)", "CQ            = 256 CQEs x 32 B = 8,192 B (8 KiB)");
    }

    @Test
    void aReceiveWqeCanHaveItsOwnSize() {
        InProcess r = InProcess.run("queue-size", "--recv-wr", "10", "--recv-wqe", "1K", "--cqe", "64");
        assertThat(r.status()).as(r.toString()).isZero();
        assertThat(r.out()).contains("receive queue = 10 WQEs x 1 KiB = 10,240 B (10 KiB)", "send queue    = 0 WQEs");
    }

    @Test
    void badInputIsOneLineNamingTheOptionAndExitOne() {
        assertBad(new String[] {"mtt-size", "--buffer", "1X"}, "--buffer", "'1X' is not a size");
        assertBad(new String[] {"mtt-size", "--buffer", "1G", "--page", "3K"}, "--page must be a power of two");
        assertBad(new String[] {"mtt-size", "--buffer", "0"}, "--buffer must be at least 1 byte");
        assertBad(new String[] {"mtt-size", "--buffer", "1G", "--entry", "0"}, "--entry must be at least 1 byte");
        assertBad(new String[] {"mtt-size", "--buffer", "1G", "--cache", "big"}, "--cache", "not a size");
        assertBad(new String[] {"mtt-size", "--page", "4K"}, "--buffer");
        assertBad(new String[] {"mtt-size", "--buffer", "8000000T", "--page", "1", "--entry", "1M"}, "too large");
        assertBad(new String[] {"mtt-size", "--buffer", "1G", "--send-wr", "4"}, "--wqe");
        assertBad(new String[] {"queue-size", "--send-wr", "4", "--wqe", "64"}, "--cqe");
        assertBad(new String[] {"queue-size", "--wqe", "64", "--cqe", "32"}, "--send-wr, --recv-wr");
        assertBad(new String[] {"queue-size", "--send-wr", "-1", "--wqe", "64", "--cqe", "32"}, "--send-wr cannot be negative");
        assertBad(new String[] {"queue-size", "--send-wr", "many", "--wqe", "64", "--cqe", "32"}, "--send-wr");
        assertBad(new String[] {"queue-size", "--bogus"}, "--bogus");
    }

    private static void assertBad(String[] args, String... mentions) {
        InProcess r = InProcess.run(args);
        assertThat(r.status()).as(r.toString()).isEqualTo(1);
        assertThat(r.out()).as(r.toString()).isEmpty();
        assertThat(r.err().lines().toList()).as(r.toString()).hasSize(1);
        assertThat(r.err()).as(r.toString()).startsWith("jrxe " + args[0] + ": ").contains(mentions)
                .contains("(see 'jrxe " + args[0] + " --help')").doesNotContain("Exception");
    }

    @Test
    void helpExplainsTheSuffixes() {
        InProcess r = InProcess.run("mtt-size", "--help");
        assertThat(r.status()).isZero();
        assertThat(r.out()).contains("K, M or G (powers of 1024)", "--cache", "--send-wr");
        assertThat(InProcess.run("queue-size", "--help").out()).contains("--cq-entries");
    }
}
