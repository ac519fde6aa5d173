/**
 * JMH benchmarks of jrxe's per-packet work: the ICRC and the header codecs. Build the tools jar
 * (the JMH annotation processor writes META-INF/BenchmarkList into it) and run JMH's main:
 * <pre>
 * ./mvnw -q -B -DskipTests -pl tools -am package
 * java --enable-native-access=ALL-UNNAMED -cp 'tools/target/jrxe-tools.jar:tools/target/lib/*' \
 *     org.openjdk.jmh.Main 'Icrc|HeaderCodec' -f 1 -wi 3 -i 5 -prof gc
 * </pre>
 * {@code -prof gc} reports gc.alloc.rate.norm, the bytes allocated per operation: the hot path
 * promises zero.
 */
package io.jrxe.tools.bench;
