package io.jrxe.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * examples/ builds and runs as a user's project would after `./mvnw install`: by coordinates, from
 * a local repository. The reactor's freshly built jars and poms (it-tests comes last, so they are
 * in each module's target/) go into a repository of this test's own, in Maven's layout; the build
 * runs with it as maven.repo.local and the outer build's repository as a read-only tail (Maven
 * 3.9's chained local repositories), so ~/.m2 is read but never written. Then both programs run
 * with `java -cp 'target/classes:target/lib/*'` as examples/README.md says.
 */
class ExamplesBuildTest {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final Pattern ARTIFACT_ID = Pattern.compile("</parent>.*?<artifactId>([^<]+)</artifactId>", Pattern.DOTALL);
    private static final Pattern VERSION = Pattern.compile("<artifactId>jrxe-parent</artifactId>\\s*<version>([^<]+)</version>");

    record Result(int exitCode, String stdout, String stderr) {
    }

    @Test
    void theExamplesBuildAgainstInstalledArtifactsAndRun(@TempDir Path dir) throws Exception {
        Path repo = dir.resolve("repo");
        installReactorArtifacts(repo);
        Path examples = dir.resolve("examples");
        copyTree(ROOT.resolve("examples"), examples);

        Result build = run(List.of(ROOT.resolve("mvnw").toString(), "-o", "-q", "-B", "-f", examples.resolve("pom.xml").toString(),
                "-Dmaven.repo.local=" + repo, "-Dmaven.repo.local.tail=" + outerRepository(), "package"), examples);
        assertThat(build.exitCode()).as("%s", build).isZero();
        assertThat(examples.resolve("target/lib/jrxe-verbs-api-" + version() + ".jar")).exists();

        Result write = runExample(examples, "FirstWrite");
        assertThat(write.exitCode()).as("%s", write).isZero();
        assertThat(write.stdout()).as("%s", write).isEqualTo("completion: SUCCESS RDMA_WRITE\npeer memory: Hello, RDMA!\n");

        Result ud = runExample(examples, "UdExample");
        assertThat(ud.exitCode()).as("%s", ud).isZero();
        assertThat(ud.stdout()).as("%s", ud).isEqualTo("sent: SUCCESS SEND\nreceived: SUCCESS RECV, 20 bytes from QP A: true\n"
                + "message: a datagram for QP B\n");

        Result connect = runExample(examples, "FirstConnect");
        assertThat(connect.exitCode()).as("%s", connect).isZero();
        assertThat(connect.stdout()).as("%s", connect).isEqualTo("connect request, private data: hello\n"
                + "received: SUCCESS Hello over rdma_cm!\ndisconnected\n");
    }

    /** The parent pom, and each module's pom and jar, where `install` would put them. */
    private static void installReactorArtifacts(Path repo) throws IOException {
        String version = version();
        install(repo, "jrxe-parent", version, ROOT.resolve("pom.xml"), null);
        Matcher modules = Pattern.compile("<module>([^<]+)</module>").matcher(Files.readString(ROOT.resolve("pom.xml")));
        while (modules.find()) {
            Path module = ROOT.resolve(modules.group(1));
            Matcher id = ARTIFACT_ID.matcher(Files.readString(module.resolve("pom.xml")));
            assertThat(id.find()).as("the artifactId of %s", module).isTrue();
            Path jar = module.resolve("target/" + id.group(1) + "-" + version + ".jar");
            install(repo, id.group(1), version, module.resolve("pom.xml"), Files.exists(jar) ? jar : null);
        }
        assertThat(repo.resolve("io/jrxe/jrxe-verbs-facade/" + version + "/jrxe-verbs-facade-" + version + ".jar"))
                .as("verbs-facade's jar: run this test in a reactor build that packages the modules first").exists();
    }

    private static void install(Path repo, String artifactId, String version, Path pom, Path jar) throws IOException {
        Path dir = repo.resolve("io/jrxe/" + artifactId + "/" + version);
        Files.createDirectories(dir);
        Files.copy(pom, dir.resolve(artifactId + "-" + version + ".pom"));
        if (jar != null) {
            Files.copy(jar, dir.resolve(artifactId + "-" + version + ".jar"));
        }
    }

    private static String version() throws IOException {
        Matcher m = VERSION.matcher(Files.readString(ROOT.resolve("it-tests/pom.xml")));
        assertThat(m.find()).as("it-tests' parent version").isTrue();
        return m.group(1);
    }

    /** The repository the outer build uses (passed by surefire), else Maven's default. */
    private static String outerRepository() {
        String configured = System.getProperty("jrxe.maven.repo.local", "");
        return configured.isBlank() || configured.contains("${")
                ? Path.of(System.getProperty("user.home"), ".m2", "repository").toString() : configured;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : files.filter(f -> !from.relativize(f).startsWith("target")).toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }

    /** A program of the examples on two loopback addresses that other builds here are unlikely to use. */
    private static Result runExample(Path examples, String program) throws Exception {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        String net = "127." + (200 + r.nextInt(50)) + "." + r.nextInt(256) + ".";
        return run(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", "target/classes" + File.pathSeparator + "target/lib/*",
                "io.jrxe.examples." + program, net + "1", net + "2"), examples);
    }

    private static Result run(List<String> command, Path workDir) throws Exception {
        Path out = Files.createTempFile(workDir.getParent(), "out", ".txt");
        Path err = Files.createTempFile(workDir.getParent(), "err", ".txt");
        Process p = new ProcessBuilder(new ArrayList<>(command)).directory(workDir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError(command + " did not end within 5 minutes; stderr: " + Files.readString(err));
        }
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }
}
