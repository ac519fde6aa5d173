package io.jrxe.tools.trace;

import io.jrxe.tools.common.BadOptionAnswer;
import io.jrxe.tools.common.InProcess;
import io.jrxe.wire.dissect.StrictJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** `jrxe trace`: the trip's steps in the course's order, with the values the NICs really used. */
class TraceCommandTest {
    private static List<Map<String, Object>> json(String... options) {
        String[] args = new String[options.length + 2];
        args[0] = "trace";
        args[1] = "--json";
        System.arraycopy(options, 0, args, 2, options.length);
        InProcess r = InProcess.run(args);
        assertThat(r.status()).as(r.toString()).isZero();
        return r.lines().stream().map(StrictJson::parseObject).toList();
    }

    private static List<String> kinds(List<Map<String, Object>> events) {
        return events.stream().map(e -> e.get("nic") + " " + e.get("event")).toList();
    }

    private static long number(Map<String, Object> e, String name) {
        return ((Number) e.get(name)).longValue();
    }

    private static List<Map<String, Object>> of(List<Map<String, Object>> events, String nic, String event) {
        return events.stream().filter(e -> e.get("nic").equals(nic) && e.get("event").equals(event)).toList();
    }

    @Test
    void aTwoPageWriteIsToldInTheCoursesOrderWithEachPagesMttEntry() {
        List<Map<String, Object>> events = json("--size", "6000");
        assertThat(kinds(events)).containsExactly(
                "jrxe0 wr", "jrxe0 post_send", "jrxe0 doorbell", "jrxe0 wqe_fetch",
                "jrxe0 dma", "jrxe0 packet", "jrxe0 dma", "jrxe0 packet",
                "jrxe1 packet_arrives", "jrxe1 dma", "jrxe1 packet_arrives", "jrxe1 dma", "jrxe1 packet",
                "jrxe0 packet_arrives", "jrxe0 ack", "jrxe0 completion", "jrxe0 cqe", "jrxe0 poll");
        Map<String, Object> wr = events.getFirst();
        long addr = number(wr, "addr");
        long remote = number(wr, "remote_addr");
        long rkey = number(wr, "rkey");
        // The buffers are page-aligned: 6000 bytes are one whole page and 1904 bytes of the next, through two
        // consecutive MTT entries that hold the two pages' addresses.
        List<Map<String, Object>> local = of(events, "jrxe0", "dma");
        assertThat(local).extracting(e -> e.get("key_kind")).containsOnly("lkey");
        assertThat(local).extracting(e -> number(e, "key")).containsOnly(number(wr, "lkey"));
        assertThat(local).extracting(e -> number(e, "page_address")).containsExactly(addr, addr + 4096);
        assertThat(local).extracting(e -> number(e, "length")).containsExactly(4096L, 1904L);
        assertThat(local).extracting(e -> e.get("direction")).containsOnly("read");
        assertThat(number(local.get(1), "mtt_index")).isEqualTo(number(local.get(0), "mtt_index") + 1);
        List<Map<String, Object>> remoteSide = of(events, "jrxe1", "dma");
        assertThat(remoteSide).extracting(e -> e.get("key_kind")).containsOnly("rkey");
        assertThat(remoteSide).extracting(e -> number(e, "key")).containsOnly(rkey);
        assertThat(remoteSide).extracting(e -> number(e, "iova")).containsExactly(remote, remote + 4096);
        assertThat(remoteSide).extracting(e -> number(e, "page_address")).containsExactly(remote, remote + 4096);
        assertThat(remoteSide).extracting(e -> e.get("direction")).containsOnly("write");
        assertThat(number(remoteSide.get(1), "mtt_index")).isEqualTo(number(remoteSide.get(0), "mtt_index") + 1);
        // The first packet carries the RETH with the WR's remote address, rkey and whole length.
        @SuppressWarnings("unchecked")
        Map<String, Object> first = (Map<String, Object>) of(events, "jrxe0", "packet").getFirst().get("packet");
        assertThat(first.get("opcode_name")).isEqualTo("RC RDMA_WRITE_FIRST");
        @SuppressWarnings("unchecked")
        Map<String, Object> reth = (Map<String, Object>) first.get("reth");
        assertThat(number(reth, "va")).isEqualTo(remote);
        assertThat(number(reth, "rkey")).isEqualTo(rkey);
        assertThat(number(reth, "dma_len")).isEqualTo(6000);
        assertThat(number(events.get(2), "sq_slot")).isZero();
        assertThat(number(of(events, "jrxe0", "cqe").getFirst(), "cq_index")).isZero();
        Map<String, Object> poll = events.getLast();
        assertThat(poll).containsEntry("status", "SUCCESS").containsEntry("opcode", "RDMA_WRITE");
        assertThat(number(poll, "byte_len")).isEqualTo(6000);
        assertThat(events).extracting(e -> number(e, "course_step"))
                .startsWith(1L, 1L, 2L, 3L, 4L, 5L);
    }

    @Test
    void withOdpEachPageIsFaultedInJustBeforeItsFirstDmaOnBothSides() {
        List<Map<String, Object>> events = json("--odp", "--size", "6000");
        assertThat(kinds(events)).containsExactly(
                "jrxe0 wr", "jrxe0 post_send", "jrxe0 doorbell", "jrxe0 wqe_fetch",
                "jrxe0 page_fault", "jrxe0 dma", "jrxe0 packet", "jrxe0 page_fault", "jrxe0 dma", "jrxe0 packet",
                "jrxe1 packet_arrives", "jrxe1 page_fault", "jrxe1 dma", "jrxe1 packet_arrives", "jrxe1 page_fault",
                "jrxe1 dma", "jrxe1 packet",
                "jrxe0 packet_arrives", "jrxe0 ack", "jrxe0 completion", "jrxe0 cqe", "jrxe0 poll");
        for (String nic : List.of("jrxe0", "jrxe1")) {
            List<Map<String, Object>> faults = of(events, nic, "page_fault");
            List<Map<String, Object>> dmas = of(events, nic, "dma");
            assertThat(faults).extracting(e -> number(e, "mtt_index"))
                    .containsExactlyElementsOf(dmas.stream().map(e -> number(e, "mtt_index")).toList());
            assertThat(faults).extracting(e -> e.get("key_kind")).containsOnly(nic.equals("jrxe0") ? "lkey" : "rkey");
            assertThat(faults).extracting(e -> e.get("arriving")).containsOnly(false);
        }
        assertThat(events.getLast()).containsEntry("status", "SUCCESS");
    }

    @Test
    void withoutOdpNoPageFaults() {
        assertThat(kinds(json("--op", "read", "--size", "100"))).noneMatch(k -> k.endsWith("page_fault"));
    }

    @Test
    void aReadTranslatesTheRkeyOnTheRemoteSideAndTheLkeyWhenTheResponseArrives() {
        List<Map<String, Object>> events = json("--op", "read", "--size", "100");
        assertThat(kinds(events)).containsSubsequence("jrxe0 wqe_fetch", "jrxe0 packet", "jrxe1 dma", "jrxe1 packet",
                "jrxe0 dma", "jrxe0 completion", "jrxe0 cqe", "jrxe0 poll");
        assertThat(of(events, "jrxe1", "dma").getFirst()).containsEntry("key_kind", "rkey").containsEntry("direction", "read");
        assertThat(of(events, "jrxe0", "dma").getFirst()).containsEntry("key_kind", "lkey").containsEntry("direction", "write");
    }

    @Test
    void aSendFillsTheReceiveThroughItsLkeyAndBothSidesPoll() {
        List<Map<String, Object>> events = json("--op", "send");
        assertThat(kinds(events)).containsSubsequence("jrxe1 recv_posted", "jrxe0 wr", "jrxe0 dma", "jrxe0 packet",
                "jrxe1 dma", "jrxe1 completion", "jrxe1 cqe", "jrxe1 poll", "jrxe0 poll");
        assertThat(of(events, "jrxe1", "dma").getFirst()).containsEntry("key_kind", "lkey").containsEntry("direction", "write");
        assertThat(of(events, "jrxe1", "poll").getFirst()).containsEntry("opcode", "RECV").containsEntry("status", "SUCCESS");
    }

    @Test
    void anAtomicReadsAndWritesTheRemoteWordThroughTheMtt() {
        List<Map<String, Object>> events = json("--op", "atomic");
        List<Map<String, Object>> remote = of(events, "jrxe1", "dma");
        assertThat(remote).extracting(e -> e.get("direction")).containsExactly("read", "write");
        assertThat(remote).extracting(e -> number(e, "length")).containsExactly(8L, 8L);
        assertThat(of(events, "jrxe1", "packet").getFirst().get("text").toString()).contains("ATOMIC_ACKNOWLEDGE");
        assertThat(events.getLast()).containsEntry("opcode", "FETCH_ADD").containsEntry("status", "SUCCESS");
    }

    @Test
    void theTextNumbersEachStepAndNamesItsCourseStep() {
        InProcess r = InProcess.run("trace");
        assertThat(r.status()).as(r.toString()).isZero();
        assertThat(r.out()).contains("2 doorbell", "3 WQE fetch", "4 lkey -> MTT, DMA", "5 packet built", "6 CQE written",
                "6 poll", "ok: jrxe1's memory");
        assertThat(r.lines()).anySatisfy(l -> assertThat(l).matches(" +5 +0\\.000 +jrxe0 +4 lkey -> MTT, DMA +lkey 0x[0-9a-f]{8} "
                + "-> MPT\\[\\d+] -> iova 0x[0-9a-f]+ -> MTT\\[\\d+] = page 0x[0-9a-f]+ \\+ 0x000: 64 bytes read \\(DMA\\)"));
    }

    @Test
    void aLostRequestIsResentWhenTheAckTimerFires() {
        List<Map<String, Object>> events = json("--drop", "1");
        List<String> kinds = kinds(events);
        assertThat(kinds.subList(kinds.indexOf("jrxe0 packet"), kinds.indexOf("jrxe0 packet") + 3))
                .containsExactly("jrxe0 packet", "net lost", "jrxe0 retransmit");
        assertThat(of(events, "net", "lost")).singleElement().satisfies(e -> assertThat(number(e, "packet")).isEqualTo(1));
        assertThat(of(events, "jrxe0", "packet")).as("the WRITE, sent again").hasSize(2);
        assertThat(of(events, "jrxe1", "packet")).as("one ACK, for the copy that arrived").hasSize(1);
        assertThat(events.getLast()).containsEntry("event", "poll").containsEntry("status", "SUCCESS");
    }

    @Test
    void aLostAckMakesTheRequesterResendAndTheResponderAcknowledgeTheDuplicate() {
        List<Map<String, Object>> events = json("--drop", "2");
        List<String> kinds = kinds(events);
        assertThat(kinds.indexOf("net lost")).isEqualTo(kinds.indexOf("jrxe1 packet") + 1);
        assertThat(of(events, "jrxe0", "packet")).hasSize(2);
        assertThat(of(events, "jrxe1", "packet")).as("the ACK, then the ACK of the duplicate").hasSize(2);
        assertThat(events.getLast()).containsEntry("status", "SUCCESS");
    }

    @Test
    void aPacketBeyondTheTripIsNotLostAndSaysHowManyThereWere() {
        InProcess r = InProcess.run("trace", "--drop", "9");
        assertThat(r.status()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("--drop 9: this trip carried only 2 packets, so none was lost (try 1 to 2)");
    }

    @Test
    void theTripsPacketsGoToACaptureAsSentAndAsReceived(@TempDir Path dir) {
        Path file = dir.resolve("trip.pcapng");
        InProcess r = InProcess.run("trace", "--drop", "1", "--capture", file.toString());
        assertThat(r.status()).as(r.toString()).isZero();
        assertThat(r.out()).contains("Capture: " + file + " (5 packets", "./jrxe view " + file);
        InProcess decoded = InProcess.run("decode", file.toString());
        assertThat(decoded.status()).as(decoded.toString()).isZero();
        // the lost WRITE as sent, the resent WRITE as sent and received, the ACK as sent and received
        assertThat(decoded.lines().stream().filter(l -> l.contains("RDMA_WRITE_ONLY")).count()).isEqualTo(3);
        assertThat(decoded.lines().stream().filter(l -> l.contains("AETH ACK")).count()).isEqualTo(2);
        assertThat(decoded.out()).contains("packets=5 roce=5 icrc_ok=5 icrc_bad=0");
    }

    @Test
    void badValuesAreOneLine() {
        BadOptionAnswer.check(InProcess.run("trace", "--op", "flush"), "trace", "--op flush", "write, read, send or atomic");
        BadOptionAnswer.check(InProcess.run("trace", "--size", "0"), "trace", "--size 0");
        BadOptionAnswer.check(InProcess.run("trace", "--size", "2000000"), "trace", "--size 2000000");
        BadOptionAnswer.check(InProcess.run("trace", "--op", "atomic", "--size", "64"), "trace", "an atomic moves 8 bytes");
        BadOptionAnswer.check(InProcess.run("trace", "--drop", "0"), "trace", "--drop 0: packets count from 1");
    }
}
