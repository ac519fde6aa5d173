package io.jrxe.tools.common;

import io.jrxe.verbs.CompChannel;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.emulated.Warmup;

/**
 * The warm-up waits with the tools' own waiting code ({@link CompletionWaiter}, busy-polled and by events): warmed
 * there, it is compiled before a test starts instead of during its first few hundred messages.
 */
final class ToolWaits implements Warmup.Waits {
    static final ToolWaits INSTANCE = new ToolWaits();
    private static final int TIMEOUT_MILLIS = 5_000;

    @Override
    public int polled(Cq cq, WorkCompletion[] wcs) {
        return CompletionWaiter.forLatency(cq, null, TIMEOUT_MILLIS, "the warm-up's completions").await(wcs);
    }

    @Override
    public int byEvent(Cq cq, CompChannel channel, WorkCompletion[] wcs) {
        return CompletionWaiter.forLatency(cq, channel, TIMEOUT_MILLIS, "the warm-up's completion events").await(wcs);
    }
}
