package io.jrxe.tools.sizing;

import io.jrxe.tools.common.ByteSizeConverter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** `jrxe mtt-size`: the pages and translation table of a registered buffer, what a cache of it maps, and optionally the queues. */
@Command(name = "mtt-size", mixinStandardHelpOptions = true,
        description = {"Prints how many pages a registered buffer covers, the size of its memory translation table (MTT: "
                + "one entry per page) and, with --cache, how much of the buffer a cache of that many bytes of entries "
                + "translates. Every result shows its arithmetic.",
            "With the queue options (as for 'jrxe queue-size') it also sizes a QP's queues and CQ.",
            "Sizes are bytes, or a number with K, M or G (powers of 1024). Example: "
                + "jrxe mtt-size --buffer 1G --page 4K --entry 8 --cache 1M"},
        exitCodeListHeading = "Exit status:%n",
        exitCodeList = {"0:the sizes were printed", "1:bad options (a bad size, a page that is not a power of two, ...)"})
public final class MttSizeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--buffer", paramLabel = "SIZE", required = true, converter = ByteSizeConverter.class,
            description = "bytes of the registered buffer (memory region)")
    long bufferBytes;

    @Option(names = "--page", paramLabel = "SIZE", defaultValue = "4K", converter = ByteSizeConverter.class,
            description = "the page size, a power of two (default: ${DEFAULT-VALUE})")
    long pageBytes;

    @Option(names = "--entry", paramLabel = "SIZE", defaultValue = "8", converter = ByteSizeConverter.class,
            description = "bytes of one MTT entry (default: ${DEFAULT-VALUE}, a 64-bit page address)")
    long entryBytes;

    @Option(names = "--cache", paramLabel = "SIZE", converter = ByteSizeConverter.class,
            description = "bytes of MTT entries a cache holds: prints how much of the buffer they map")
    Long cacheBytes;

    @Mixin
    QueueOptions queues;

    @Override
    public Integer call() {
        String bad = MttSizing.problem(bufferBytes, pageBytes, entryBytes, cacheBytes);
        if (bad != null) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), bad);
        }
        SizingOutput.print(spec, new MttSizing(bufferBytes, pageBytes, entryBytes, cacheBytes == null ? 0 : cacheBytes),
                queues.any() ? queues : null);
        return 0;
    }
}
