package io.jrxe.verbs.facade;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each program the documentation shows (the Java block between {@code <!-- NAME:begin -->} and
 * {@code <!-- NAME:end -->}: the README's first, docs/cm.md's connection)
 * is an example of examples/ word for word; it compiles against the
 * API with javax.tools and, run as a user runs it, prints what it should; and it uses nothing but
 * the verbs API and the JDK.
 */
class ReadmeExampleTest {
    /** The documented programs: their page, their marker, their example's class, and what a run prints. */
    enum Block {
        FIRST_WRITE("README.md", "example", "FirstWrite", "completion: SUCCESS RDMA_WRITE\npeer memory: Hello, RDMA!\n"),
        FIRST_CONNECT("docs/cm.md", "cm-example", "FirstConnect", "connect request, private data: hello\n"
                + "received: SUCCESS Hello over rdma_cm!\ndisconnected\n");

        final Path page;
        final String marker;
        final String className;
        final String output;

        Block(String page, String marker, String className, String output) {
            this.page = JavaProgram.repositoryRoot().resolve(page);
            this.marker = marker;
            this.className = className;
            this.output = output;
        }

        Path source() {
            return JavaProgram.repositoryRoot().resolve("examples/src/main/java/io/jrxe/examples/" + className + ".java");
        }
    }

    @ParameterizedTest
    @EnumSource(Block.class)
    void theReadmesProgramIsItsExample(Block block) throws IOException {
        assertThat(readmeBlock(block)).isEqualTo(Files.readString(block.source()));
    }

    @ParameterizedTest
    @EnumSource(Block.class)
    void theReadmesProgramCompilesRunsAndPrintsWhatItShould(Block block, @TempDir Path dir) throws Exception {
        JavaProgram program = JavaProgram.compile("io.jrxe.examples." + block.className, readmeBlock(block), dir);
        JavaProgram.Result r = program.run(JavaProgram.loopbackPair());
        assertThat(r.exitCode()).as("%s", r).isZero();
        assertThat(r.stdout()).as("%s", r).isEqualTo(block.output);
    }

    @ParameterizedTest
    @EnumSource(Block.class)
    void theReadmesProgramUsesOnlyTheVerbsApi(Block block) throws IOException {
        assertThat(readmeBlock(block).lines().filter(l -> l.startsWith("import ")))
                .isNotEmpty()
                .allMatch(l -> l.startsWith("import io.jrxe.verbs.") || l.startsWith("import java."));
    }

    /** The code of one of the documented example blocks, without its ```java fence. */
    static String readmeBlock(Block b) throws IOException {
        String readme = Files.readString(b.page);
        int begin = readme.indexOf("<!-- " + b.marker + ":begin -->");
        int end = readme.indexOf("<!-- " + b.marker + ":end -->");
        assertThat(begin).as("%s has <!-- %s:begin -->", b.page, b.marker).isNotNegative();
        assertThat(end).as("%s has <!-- %s:end --> after the begin marker", b.page, b.marker).isGreaterThan(begin);
        String block = readme.substring(begin, end);
        int open = block.indexOf("```java\n");
        int close = block.lastIndexOf("```");
        assertThat(open).as("a ```java block between the markers").isNotNegative();
        assertThat(close).as("the block's closing fence").isGreaterThan(open);
        return block.substring(open + "```java\n".length(), close);
    }
}
