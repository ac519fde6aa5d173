package io.jrxe.verbs.facade;

import io.jrxe.verbs.*;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's first program (the Java block between {@code <!-- example:begin -->} and
 * {@code <!-- example:end -->}) is examples' FirstWrite, word for word; it compiles against the
 * API with javax.tools and, run as a user runs it, writes its bytes into the peer's memory and
 * says so; and it uses nothing but the verbs API and the JDK.
 */
class ReadmeExampleTest {
    private static final Path README = JavaProgram.repositoryRoot().resolve("README.md");
    private static final Path FIRST_WRITE =
            JavaProgram.repositoryRoot().resolve("examples/src/main/java/io/jrxe/examples/FirstWrite.java");

    @Test
    void theReadmesProgramIsExamplesFirstWrite() throws IOException {
        assertThat(readmeExample()).isEqualTo(Files.readString(FIRST_WRITE));
    }

    @Test
    void theReadmesProgramCompilesRunsAndWritesThePeersMemory(@TempDir Path dir) throws Exception {
        JavaProgram program = JavaProgram.compile("io.jrxe.examples.FirstWrite", readmeExample(), dir);
        JavaProgram.Result r = program.run(JavaProgram.loopbackPair());
        assertThat(r.exitCode()).as("%s", r).isZero();
        assertThat(r.stdout()).as("%s", r).isEqualTo("completion: SUCCESS RDMA_WRITE\npeer memory: Hello, RDMA!\n");
    }

    @Test
    void theReadmesProgramUsesOnlyTheVerbsApi() throws IOException {
        assertThat(readmeExample().lines().filter(l -> l.startsWith("import ")))
                .isNotEmpty()
                .allMatch(l -> l.startsWith("import io.jrxe.verbs.") || l.startsWith("import java."));
    }

    /** The code of the README's example block, without its ```java fence. */
    static String readmeExample() throws IOException {
        String readme = Files.readString(README);
        int begin = readme.indexOf("<!-- example:begin -->");
        int end = readme.indexOf("<!-- example:end -->");
        assertThat(begin).as("README.md has <!-- example:begin -->").isNotNegative();
        assertThat(end).as("README.md has <!-- example:end --> after the begin marker").isGreaterThan(begin);
        String block = readme.substring(begin, end);
        int open = block.indexOf("```java\n");
        int close = block.lastIndexOf("```");
        assertThat(open).as("a ```java block between the markers").isNotNegative();
        assertThat(close).as("the block's closing fence").isGreaterThan(open);
        return block.substring(open + "```java\n".length(), close);
    }
}
