/**
 * JMH benchmarks of jrxe's per-packet work: the ICRC, the header codecs, MR registration and
 * key check plus translation. The JMH annotation processor writes META-INF/BenchmarkList into
 * the module's jar, which runs JMH's main; benchmarks/README.md has the commands.
 * {@code -prof gc} reports gc.alloc.rate.norm, the bytes allocated per operation: the hot path
 * promises zero.
 */
package io.jrxe.benchmarks;
