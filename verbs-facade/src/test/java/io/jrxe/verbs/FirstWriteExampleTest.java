package io.jrxe.verbs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * examples/FirstWrite, the README's first program, compiles against the API and, run as a
 * user runs it, writes its bytes into the peer's memory and says so.
 */
class FirstWriteExampleTest {
    static final Path SOURCE = JavaProgram.repositoryRoot().resolve("examples/src/main/java/io/jrxe/examples/FirstWrite.java");

    @Test
    void oneSignaledRdmaWriteLandsInThePeersMemory(@TempDir Path dir) throws Exception {
        JavaProgram program = JavaProgram.compile("io.jrxe.examples.FirstWrite", Files.readString(SOURCE), dir);
        JavaProgram.Result r = program.run(JavaProgram.loopbackPair());
        assertThat(r.exitCode()).as("%s", r).isZero();
        assertThat(r.stdout()).as("%s", r).isEqualTo("completion: SUCCESS RDMA_WRITE\npeer memory: Hello, RDMA!\n");
    }

    @Test
    void itUsesOnlyTheVerbsApi() throws Exception {
        assertThat(Files.readAllLines(SOURCE)).filteredOn(l -> l.startsWith("import "))
                .allMatch(l -> l.startsWith("import io.jrxe.verbs.") || l.startsWith("import java."));
    }
}
