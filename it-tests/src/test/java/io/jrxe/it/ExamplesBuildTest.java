package io.jrxe.it;

import io.jrxe.verbs.nativ.NativeHost;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
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
 * a local repository. The reactor's freshly built jars, sources and javadoc jars and poms (it-tests comes
 * last, so they are in each module's target/) go into a repository of this test's own, in Maven's layout; the
 * build runs with it as maven.repo.local and the outer build's repository as a read-only tail (Maven 3.9's
 * chained local repositories), so ~/.m2 is read but never written. Then the programs run with
 * `java -cp 'target/classes:target/lib/*'` as examples/README.md says: on two jrxe NICs each, and the READ and
 * the mistakes also on a kernel rxe0 where this machine has one.
 */
class ExamplesBuildTest {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final Pattern ARTIFACT_ID = Pattern.compile("</parent>.*?<artifactId>([^<]+)</artifactId>", Pattern.DOTALL);
    private static final Pattern FINAL_NAME = Pattern.compile("<finalName>([^<]+)</finalName>");
    private static final Pattern VERSION = Pattern.compile("<artifactId>jrxe-parent</artifactId>\\s*<version>([^<]+)</version>");
    private static final String KERNEL_DEVICE = "rxe0";

    private static final String READ_OUTPUT = "completion: SUCCESS RDMA_READ, 1048576 bytes\n"
            + "B's memory: crc32 a22c8776\nA's copy:   crc32 a22c8776, the same bytes: true\n";
    /** What the mistakes program prints, but for the refusal's message, which is the provider's own sentence. */
    private static final List<String> MISTAKES_OUTPUT = List.of(
            "1. a READ with a wrong rkey (one bit flipped)",
            "   completion: REM_ACCESS_ERR (remote access error)",
            "   fix: the rkey of the peer's MR, exactly as the peer sent it",
            "2. a READ from a QP that allows remote writes only",
            "   completion: REM_INV_REQ_ERR (remote invalid request error)",
            "   fix: REMOTE_READ in the access flags of the QP that is read from, not only of its MR",
            "3. a post to a QP in INIT: it sends from RTS on",
            "   refused: EINVAL",
            "   message: ",
            "   QP state: INIT",
            "   fix: take the QP through RTR to RTS first (QpConnect does it in one call)");
    private static final int MISTAKES_MESSAGE_LINE = 8;

    @TempDir
    static Path dir;
    private static Path examples;

    record Result(int exitCode, String stdout, String stderr) {
    }

    @BeforeAll
    static void buildTheExamplesAgainstInstalledArtifacts() throws Exception {
        Path repo = dir.resolve("repo");
        installReactorArtifacts(repo);
        examples = dir.resolve("examples");
        copyTree(ROOT.resolve("examples"), examples);

        Result build = run(List.of(ROOT.resolve("mvnw").toString(), "-o", "-q", "-B", "-f", examples.resolve("pom.xml").toString(),
                "-Dmaven.repo.local=" + repo, "-Dmaven.repo.local.tail=" + outerRepository(), "package"), examples);
        assertThat(build.exitCode()).as("%s", build).isZero();
        assertThat(examples.resolve("target/lib/jrxe-verbs-api-" + version() + ".jar")).exists();
    }

    @Test
    void theProgramsGetNoLoggingLibraryFromJrxe() throws IOException {
        try (Stream<Path> jars = Files.list(examples.resolve("target/lib"))) {
            assertThat(jars.map(p -> p.getFileName().toString()))
                    .contains("jrxe-verbs-facade-" + version() + ".jar")
                    .noneMatch(name -> name.startsWith("slf4j-") || name.startsWith("pcap4j-") || name.startsWith("jna-"));
        }
    }

    @Test
    void theProgramsRunOnJrxeNicsAndPrintWhatTheReadmeSays() throws Exception {
        assertRun(runExample("FirstWrite", loopbackPair()), "completion: SUCCESS RDMA_WRITE\npeer memory: Hello, RDMA!\n");
        assertRun(runExample("UdExample", loopbackPair()), "sent: SUCCESS SEND\nreceived: SUCCESS RECV, 20 bytes from QP A: true\n"
                + "message: a datagram for QP B\n");
        assertRun(runExample("FirstConnect", loopbackPair()), "connect request, private data: hello\n"
                + "received: SUCCESS Hello over rdma_cm!\ndisconnected\n");
        assertRun(runExample("CmImmediate", loopbackPair()), "connected\n"
                + "server received: SUCCESS RECV, 5 bytes \"ping\", immediate data 0xcafe\n"
                + "client received: SUCCESS RECV, 5 bytes \"pong\", immediate data 0xbeef\ndisconnected\n");
        assertRun(runExample("RdmaRead", loopbackPair()), READ_OUTPUT);

        Result mistakes = runExample("Mistakes", loopbackPair());
        assertMistakes(mistakes);
        assertThat(mistakes.stdout().lines().toList().get(MISTAKES_MESSAGE_LINE)).as("%s", mistakes)
                .matches("   message: work request 0 of the chain: QP 0x\\p{XDigit}{6} is in INIT: post_send needs RTS .*");
    }

    @Test
    void aDeviceThatIsNotThereIsOneLineWithItsErrno() throws Exception {
        Result r = runExample("RdmaRead", List.of("no-such-device"));
        assertThat(r.exitCode()).as("%s", r).isEqualTo(2);
        assertThat(r.stdout()).as("%s", r).isEmpty();
        assertThat(r.stderr()).as("%s", r).startsWith("RdmaRead: ENODEV: no RDMA device named no-such-device")
                .endsWith("\n").hasLineCount(1);
    }

    @Test
    void theReadAndTheMistakesRunOnAKernelRxe0() throws Exception {
        NativeHost.assumeLibibverbs();
        boolean present = Files.exists(Path.of("/sys/class/infiniband", KERNEL_DEVICE));
        if (!present) {
            System.err.println("SKIPPED: this machine has no kernel RDMA device " + KERNEL_DEVICE);
        }
        Assumptions.assumeTrue(present, "no kernel RDMA device " + KERNEL_DEVICE);
        assertRun(runExample("RdmaRead", List.of(KERNEL_DEVICE)), READ_OUTPUT);
        Result mistakes = runExample("Mistakes", List.of(KERNEL_DEVICE));
        assertMistakes(mistakes);
        assertThat(mistakes.stdout().lines().toList().get(MISTAKES_MESSAGE_LINE)).as("%s", mistakes).matches("   message: .+");
    }

    private static void assertRun(Result r, String stdout) {
        assertThat(r.exitCode()).as("%s", r).isZero();
        assertThat(r.stdout()).as("%s", r).isEqualTo(stdout);
        assertThat(r.stderr()).as("no warnings, SLF4J's or any other: %s", r).isEmpty();
    }

    /** Every line as {@link #MISTAKES_OUTPUT} says, the refusal's message line only by its start. */
    private static void assertMistakes(Result r) {
        assertThat(r.exitCode()).as("%s", r).isZero();
        assertThat(r.stderr()).as("%s", r).isEmpty();
        List<String> lines = r.stdout().lines().toList();
        assertThat(lines).as("%s", r).hasSameSizeAs(MISTAKES_OUTPUT);
        for (int i = 0; i < lines.size(); i++) {
            if (i == MISTAKES_MESSAGE_LINE) {
                assertThat(lines.get(i)).as("%s", r).startsWith(MISTAKES_OUTPUT.get(i));
            } else {
                assertThat(lines.get(i)).as("%s", r).isEqualTo(MISTAKES_OUTPUT.get(i));
            }
        }
    }

    /**
     * The parent pom, and each module's pom and jar, where `install` would put them; a published module (one that
     * does not set maven.deploy.skip) also has its sources and javadoc jars, which must be there.
     */
    private static void installReactorArtifacts(Path repo) throws IOException {
        String version = version();
        install(repo, "jrxe-parent", version, ROOT.resolve("pom.xml"), List.of());
        Matcher modules = Pattern.compile("<module>([^<]+)</module>").matcher(Files.readString(ROOT.resolve("pom.xml")));
        while (modules.find()) {
            Path module = ROOT.resolve(modules.group(1));
            String pom = Files.readString(module.resolve("pom.xml"));
            Matcher id = ARTIFACT_ID.matcher(pom);
            assertThat(id.find()).as("the artifactId of %s", module).isTrue();
            Matcher finalName = FINAL_NAME.matcher(pom);
            String built = finalName.find() ? finalName.group(1) : id.group(1) + "-" + version;
            List<Path> jars = new ArrayList<>();
            Path jar = module.resolve("target/" + built + ".jar");
            if (Files.exists(jar)) {
                jars.add(jar);
            }
            if (!pom.contains("<maven.deploy.skip>true</maven.deploy.skip>")) {
                for (String classifier : List.of("sources", "javadoc")) {
                    Path attached = module.resolve("target/" + built + "-" + classifier + ".jar");
                    assertThat(attached).as("%s's %s jar", id.group(1), classifier).exists();
                    jars.add(attached);
                }
            }
            install(repo, id.group(1), version, module.resolve("pom.xml"), jars);
        }
        assertThat(repo.resolve("io/jrxe/jrxe-verbs-facade/" + version + "/jrxe-verbs-facade-" + version + ".jar"))
                .as("verbs-facade's jar: run this test in a reactor build that packages the modules first").exists();
    }

    /** A pom and its jars under Maven's names: ARTIFACT-VERSION.jar, ARTIFACT-VERSION-CLASSIFIER.jar. */
    private static void install(Path repo, String artifactId, String version, Path pom, List<Path> jars) throws IOException {
        Path dir = repo.resolve("io/jrxe/" + artifactId + "/" + version);
        Files.createDirectories(dir);
        Files.copy(pom, dir.resolve(artifactId + "-" + version + ".pom"));
        for (Path jar : jars) {
            String name = jar.getFileName().toString();
            String classifier = name.endsWith("-sources.jar") ? "-sources" : name.endsWith("-javadoc.jar") ? "-javadoc" : "";
            Files.copy(jar, dir.resolve(artifactId + "-" + version + classifier + ".jar"));
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

    /** Two loopback addresses that other builds here are unlikely to use. */
    private static List<String> loopbackPair() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        String net = "127." + (200 + r.nextInt(50)) + "." + r.nextInt(256) + ".";
        return List.of(net + "1", net + "2");
    }

    private static Result runExample(String program, List<String> args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", "target/classes" + File.pathSeparator + "target/lib/*",
                "io.jrxe.examples." + program));
        command.addAll(args);
        return run(command, examples);
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
