package io.jrxe.tools.sizing;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** `jrxe queue-size`: the bytes of a QP's send and receive queues and of its CQ, with the arithmetic. */
@Command(name = "queue-size", mixinStandardHelpOptions = true,
        description = {"Prints the memory of a QP's send queue, receive queue and completion queue: entries times the "
                + "size of one entry, with the arithmetic. The CQ has one entry per work request unless --cq-entries "
                + "says otherwise.",
            "Sizes are bytes, or a number with K, M or G (powers of 1024). Example: "
                + "jrxe queue-size --send-wr 128 --recv-wr 64 --wqe 64 --cqe 32"},
        exitCodeListHeading = "Exit status:%n",
        exitCodeList = {"0:the sizes were printed", "1:bad options (a bad size, a missing --wqe or --cqe, ...)"})
public final class QueueSizeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    QueueOptions queues;

    @Override
    public Integer call() {
        SizingOutput.print(spec, null, queues);
        return 0;
    }
}
