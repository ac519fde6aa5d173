package io.jrxe.tools.baseline;

import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.icrc.Ipv4IdentificationSolver;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The loops behind udp-baseline's rates with no network stack: what each unit does, and how a run counts them. */
class CopyAndCrcLoopsTest {
    /** Counts the units it is asked for. */
    private static final class Counting extends TimedLoop {
        long done;

        @Override
        void repeat(int units) {
            done += units;
        }

        @Override
        int bytesPerUnit() {
            return 100;
        }
    }

    @Test
    void aRunWarmsUpThenCountsWholeBatchesForAtLeastItsTime() {
        Counting loop = new Counting();
        TimedLoop.Rate r = loop.run(2_000_000L);
        assertThat(r.nanos()).isGreaterThanOrEqualTo(2_000_000L);
        assertThat(r.units()).isPositive().isEqualTo(r.units() / TimedLoop.BATCH * TimedLoop.BATCH);
        assertThat(loop.done).as("the warm-up's units are done, not counted").isGreaterThan(r.units());
        assertThat(r.bytesPerUnit()).isEqualTo(100);
        assertThat(loop.done()).isEqualTo(loop.done);
    }

    @Test
    void everyCopyOfARunReadsBackAsItsSource() {
        try (MemoryCopyLoop loop = new MemoryCopyLoop(2 * MemoryCopyLoop.BLOCK_BYTES)) {
            loop.run(1_000_000L);
            assertThat(loop.everyCopyArrived()).isTrue();
            loop.sink++; // as if one block had read back wrong
            assertThat(loop.everyCopyArrived()).isFalse();
        }
    }

    @Test
    void aRateIsUnitsAndBytesPerSecond() {
        TimedLoop.Rate r = new TimedLoop.Rate(2048, 500_000_000L, 1024);
        assertThat(r.unitsPerSecond()).isEqualTo(4096.0);
        assertThat(r.mibPerSecond()).isEqualTo(4.0);
    }

    @Test
    void aSentPacketCarriesItsNextPsnAndTheIcrcAReceiverSolvesToIdentificationZero() {
        IcrcSendLoop loop = new IcrcSendLoop(1024);
        loop.repeat(3);
        ByteBuffer packet = loop.packet();
        assertThat(loop.bytesPerUnit()).isEqualTo(1040);
        assertThat(packet.capacity()).isEqualTo(1040);
        assertThat(new BthFlyweight().wrap(packet, 0).psn()).isEqualTo(3);
        int expected = new IcrcCalculator().ipv4(SamplePackets.SOURCE_ADDRESS, SamplePackets.DESTINATION_ADDRESS, 0,
                0x4000, SamplePackets.SOURCE_PORT, 4791, packet, 0, 1040);
        assertThat(IcrcCalculator.read(packet, 1036)).isEqualTo(expected);
        assertThat(new Ipv4IdentificationSolver().solve(SamplePackets.SOURCE_ADDRESS, SamplePackets.DESTINATION_ADDRESS,
                0x4000, SamplePackets.SOURCE_PORT, 4791, packet, 0, 1040)).isZero();
        assertThat(loop.lastIcrcRight()).isTrue();
        packet.put(500, (byte) ~packet.get(500)); // the packet's own bytes, through the view
        assertThat(loop.lastIcrcRight()).isFalse();
    }

    @Test
    void theSolveLoopFindsEveryPacketsIdentification() {
        IdentificationSolveLoop loop = new IdentificationSolveLoop(4096);
        loop.repeat(3 * IdentificationSolveLoop.PACKETS + 5);
        assertThat(loop.wrongAnswers()).isZero();
        assertThat(loop.bytesPerUnit()).isEqualTo(4112);
        assertThat(loop.sink).as("the identifications solved, summed").isPositive();
    }

    @Test
    void samplePacketsAreSendOnlyWithPsnsInOrder() {
        ByteBuffer packets = SamplePackets.of(3, 64);
        BthFlyweight bth = new BthFlyweight();
        for (int k = 0; k < 3; k++) {
            bth.wrap(packets, k * 80);
            assertThat(bth.opcode()).isEqualTo(0x04);
            assertThat(bth.psn()).isEqualTo(k);
        }
    }

    @Test
    void theCopyCyclesThroughItsWorkingSet() {
        try (MemoryCopyLoop loop = new MemoryCopyLoop(2 * MemoryCopyLoop.BLOCK_BYTES)) {
            loop.repeat(5); // past the end of the two blocks twice
            assertThat(loop.sink).as("each unit reads back a byte of the copy").isEqualTo(5L * MemoryCopyLoop.SOURCE_BYTE);
            assertThat(loop.bytesPerUnit()).isEqualTo(MemoryCopyLoop.BLOCK_BYTES);
        }
    }

    @Test
    void aWorkingSetNotOfWholeBlocksIsRefused() {
        assertThatThrownBy(() -> new MemoryCopyLoop(MemoryCopyLoop.BLOCK_BYTES + 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("multiple of 65536");
    }
}
