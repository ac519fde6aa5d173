package io.jrxe.tools.learn;

import io.jrxe.tools.UserError;

import java.util.List;
import java.util.Map;

/**
 * Lesson 1: zero copy and kernel bypass, and what the kernel still does. The question is conceptual (which step needs
 * the kernel); the run checks that the trace still shows the data path the question is about: a doorbell and a DMA of
 * the whole message, with no step between the program and the NIC.
 */
final class WhyRdma implements Lesson {
    @Override
    public String file() {
        return "01-why-rdma.md";
    }

    @Override
    public Solution solve(LessonTools tools) {
        List<Map<String, Object>> events = tools.trace();
        Map<String, Object> dma = events.stream().filter(e -> "dma".equals(e.get("event"))).findFirst()
                .orElseThrow(() -> new UserError("jrxe trace showed no DMA step: the lesson does not match the tool"));
        long doorbells = events.stream().filter(e -> "doorbell".equals(e.get("event"))).count();
        return new Solution(Answer.choice('c', "ibv_reg_mr"),
                Map.of("dma_bytes", String.valueOf(dma.get("length")), "doorbells", String.valueOf(doorbells)));
    }
}
