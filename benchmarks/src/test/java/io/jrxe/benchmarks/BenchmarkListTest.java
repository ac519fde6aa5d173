package io.jrxe.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;

/**
 * JMH's main runs only what META-INF/BenchmarkList names, and only the annotation processor
 * writes that file: a build that lost the processor would still compile and then run nothing.
 * A benchmark whose methods run together on several threads is listed by its group's name.
 */
class BenchmarkListTest {
    private static final List<Class<?>> BENCHMARK_CLASSES = List.of(
            IcrcBenchmark.class, HeaderCodecBenchmark.class, RegMrBenchmark.class, TranslationBenchmark.class,
            FabricBenchmark.class, CongestionHooksBenchmark.class, ShmWireBenchmark.class,
            ShmRingRoundTripBenchmark.class, CompletionQueueBenchmark.class);

    @Test
    void jmhListsEveryBenchmarkMethod() throws IOException {
        Set<String> listed = listedBenchmarks();
        for (Class<?> benchmarkClass : BENCHMARK_CLASSES) {
            List<String> methods = Arrays.stream(benchmarkClass.getDeclaredMethods())
                    .filter(m -> m.isAnnotationPresent(Benchmark.class))
                    .map(m -> m.isAnnotationPresent(Group.class) ? m.getAnnotation(Group.class).value() : m.getName())
                    .toList();
            assertThat(methods).as("@Benchmark methods of %s", benchmarkClass.getSimpleName()).isNotEmpty();
            for (String method : methods) {
                assertThat(listed).as("META-INF/BenchmarkList").contains(benchmarkClass.getName() + "." + method);
            }
        }
    }

    private static Set<String> listedBenchmarks() throws IOException {
        try (InputStream in = BenchmarkListTest.class.getResourceAsStream(BenchmarkList.BENCHMARK_LIST)) {
            assertThat(in).as("%s on the class path", BenchmarkList.BENCHMARK_LIST).isNotNull();
            return BenchmarkList.readBenchmarkList(in).stream()
                    .map(BenchmarkListEntry::getUsername)
                    .collect(Collectors.toSet());
        }
    }
}
