package io.jrxe.it.interop;

import io.jrxe.tools.JrxeMain;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * The lab of {@code tools/lab/lab.sh}: a qemu guest of one Debian release ({@link LabRelease})
 * whose kernel rxe (rxe0) is the peer, on a bridge in the release's network namespace. One booted
 * guest serves every test of that release; jrxe runs in the namespace as a separate JVM (a thread
 * cannot enter a namespace that the rest of the JVM is not in).
 */
final class Lab implements AutoCloseable {
    static final String HOST4 = "10.77.0.1";
    static final String HOST6 = "fd77::1";
    static final String GUEST4 = "10.77.0.2";
    static final String GUEST6 = "fd77::2";

    /**
     * JIT flags for a JVM in the guest. Under qemu's multi-threaded TCG a vCPU can execute a method's entry while
     * another vCPU patches it (HotSpot makes a C1 method not entrant by writing a jmp over its first five bytes
     * when the C2 version is installed) and run instruction bytes that were never in memory together: a SIGILL or
     * SIGSEGV at a C1 entry (docs/lab.md). With C1 only, no method is replaced by a C2 version, so that
     * patching all but stops; the JVM also starts faster there, C2 being costly to emulate.
     */
    private static final String GUEST_JIT = "-XX:TieredStopAtLevel=1";
    /** Where the guest's `jrxe` comes from: a copy of the tools' jar and libraries in the guest's memory. */
    private static final String GUEST_TOOLS = "/tmp/jrxe-tools";
    /** The host's JDK in the guest, C1 only, with native access: how every guest JVM starts. */
    static final String GUEST_JAVA = "/opt/jdk/bin/java " + GUEST_JIT + " --enable-native-access=ALL-UNNAMED";
    /** The jar {@link #up} makes of these tests' classes on the host, for the guest to copy in one read. */
    private static final String TEST_CLASSES_JAR = "guest-test-classes.jar";
    /**
     * The classpath of a guest JVM that runs a class of these tests: the copies {@link #up} made. Under TCG a JVM that
     * loads its classes over 9p from the checkout shared at /opt/jrxe starts 3 to 6 s later (15 to 18 s against 12).
     */
    static final String GUEST_TEST_CLASSPATH = "-cp '" + GUEST_TOOLS + "/" + TEST_CLASSES_JAR + ":" + GUEST_TOOLS + "/jrxe-tools.jar:"
            + GUEST_TOOLS + "/lib/*'";
    /**
     * The guest's `jrxe`: the copy {@link #up} made of the host's jar, run by the host's JDK with C1 only and the class
     * archive {@link #up} had it write. Under TCG a JVM that reads the jar over 9p and loads its classes one by one
     * takes about 40 s to run `devinfo`; from the copy with the archive, about 10.
     */
    static final String GUEST_JRXE = GUEST_JAVA + " -XX:SharedArchiveFile=" + GUEST_TOOLS + "/classes.jsa -jar "
            + GUEST_TOOLS + "/jrxe-tools.jar";
    /** A guest JVM running {@code main}, a class of these tests, in /opt/jrxe (the caller changes there first). */
    static String guestTestMain(Class<?> main) {
        return GUEST_JAVA + " " + GUEST_TEST_CLASSPATH + " " + main.getName();
    }

    /**
     * Makes the copies (jrxe's jar and libraries, these tests' classes) and the archive (the classes one `devinfo` on
     * rxe0 loads); nothing where the host shares no JDK.
     */
    private static final String STAGE_GUEST_JRXE = "test -x /opt/jdk/bin/java || exit 0; rm -rf " + GUEST_TOOLS
            + " && mkdir -p " + GUEST_TOOLS + " && cp -r /opt/jrxe/tools/target/jrxe-tools.jar /opt/jrxe/tools/target/lib "
            + "/opt/jrxe/it-tests/target/" + TEST_CLASSES_JAR + " " + GUEST_TOOLS + " && cd /tmp && " + GUEST_JAVA
            + " -XX:ArchiveClassesAtExit=" + GUEST_TOOLS + "/classes.jsa -jar " + GUEST_TOOLS + "/jrxe-tools.jar devinfo -d rxe0 >/dev/null";

    private static final Duration BUILD_AND_BOOT = Duration.ofMinutes(12);
    private static final Duration READY_POLL = Duration.ofSeconds(60);
    private static final Pattern GID_ROW = Pattern.compile("GID\\[\\s*(\\d+)]:\\s+(\\S+), RoCE v2");

    private static final Pattern RELEASE_ROW = Pattern.compile("(?m)^release: (\\S+)");

    private final LabRelease release;
    private final boolean startedHere;
    private final int guestGid4;
    private final int guestGid6;

    private Lab(LabRelease release, boolean startedHere, int guestGid4, int guestGid6) {
        this.release = release;
        this.startedHere = startedHere;
        this.guestGid4 = guestGid4;
        this.guestGid6 = guestGid6;
    }

    static Path script() {
        return Path.of(System.getProperty("user.dir")).resolveSibling("tools").resolve("lab").resolve("lab.sh");
    }

    /** lab.sh with ARGS for the lab of {@code release}: its namespace and run directory in the environment. */
    private static Job labScript(LabRelease release, String name, String... args) {
        List<String> command = new ArrayList<>(List.of(script().toString()));
        command.addAll(List.of(args));
        return Job.start(name, command, Map.of("JRXE_LAB_NETNS", release.netns(), "JRXE_LAB_RUN", release.runDirectory()));
    }

    /** lab.sh's words when a guest was not ready in its boot time. */
    private static final String NOT_READY = "not ready after";

    /** One {@code lab up}, its output printed. */
    private static Job.Result boot(LabRelease release) throws InterruptedException {
        // The lifetime only bounds a lab that a crashed run left behind (close stops it otherwise). One lab serves
        // every class of its release in the run, which can take over 40 minutes on a slow machine: a lab that
        // timeout stops under a test fails it ("guest 1 stopped while running the command"), so it outlives a
        // whole run.
        Job.Result up = labScript(release, "lab up", "up", "--release", release.option(), "--boot-timeout", "420",
                "--lifetime", "100m").await(BUILD_AND_BOOT);
        System.out.println(up.output().strip());
        return up;
    }

    /** Null when the lab of {@code release} can run here, else why not (from {@code lab.sh check}). */
    static String unavailableBecause(LabRelease release) throws InterruptedException {
        Path script = script();
        if (!Files.isExecutable(script)) {
            return script + " is missing or not executable";
        }
        Job.Result check = labScript(release, "lab check", "check", "--release", release.option()).await(Duration.ofSeconds(60));
        if (check.exitCode() == 0) {
            return null;
        }
        String[] lines = check.output().strip().split("\n");
        return lines[lines.length - 1].replaceFirst("^jrxe lab: ", "");
    }

    /**
     * Uses the lab of {@code release} that is up, or builds (if not cached) and boots one, which
     * {@link #close} stops. A lab of another release up in the same namespace is an error.
     */
    static Lab up(LabRelease release) throws InterruptedException {
        // status asks the guest, which may take a minute on a busy host (lab.sh gives it 60 s).
        Job.Result status = labScript(release, "lab status", "status").await(Duration.ofSeconds(120));
        boolean running = status.exitCode() == 0;
        if (running) {
            Matcher m = RELEASE_ROW.matcher(status.output());
            if (!m.find() || !m.group(1).equals(release.option())) {
                throw new AssertionError("the lab in namespace " + release.netns() + " is not " + release.option() + ": " + status);
            }
        } else {
            long start = System.nanoTime();
            Job.Result up = boot(release);
            if (up.exitCode() != 0 && up.output().contains(NOT_READY)) {
                // A TCG guest now and then hangs before its kernel starts (nothing on its console), where the same
                // image boots in seconds the next time: one more boot, instead of failing every class of the release.
                System.out.printf("interop: the %s lab did not come up; booting it once more%n", release.option());
                up = boot(release);
            }
            System.out.printf("interop: the %s lab was up in %.0f s%n", release.option(), (System.nanoTime() - start) / 1e9);
            if (up.exitCode() != 0) {
                throw new AssertionError("jrxe lab up --release " + release.option() + " failed: " + up);
            }
        }
        Job.Result gids = labScript(release, "ibv_devinfo", "run", "--timeout", "30", "ibv_devinfo -v -d rxe0")
                .await(Duration.ofSeconds(90));
        int gid4 = -1;
        int gid6 = -1;
        Matcher m = GID_ROW.matcher(gids.output());
        while (m.find()) {
            if (m.group(2).equals("::ffff:" + GUEST4)) {
                gid4 = Integer.parseInt(m.group(1));
            } else if (m.group(2).equals(GUEST6)) {
                gid6 = Integer.parseInt(m.group(1));
            }
        }
        Lab lab = new Lab(release, !running, gid4, gid6);
        if (gid4 < 0 || gid6 < 0) {
            lab.close();
            throw new AssertionError("rxe0 in the guest has no RoCE v2 GID for " + GUEST4 + " or " + GUEST6 + ": " + gids);
        }
        // Each run copies the jars again: a lab that was up already may hold an older build.
        long start = System.nanoTime();
        try {
            jarTestClasses(Path.of("target", "test-classes"), Path.of("target", TEST_CLASSES_JAR));
        } catch (IOException e) {
            lab.close();
            throw new AssertionError("cannot jar these tests' classes for the guest", e);
        }
        Job.Result staged = lab.guestNow(STAGE_GUEST_JRXE, 300);
        if (staged.exitCode() != 0) {
            lab.close();
            throw new AssertionError("cannot copy jrxe into the " + release.option() + " guest: " + staged);
        }
        System.out.printf("interop: jrxe copied into the %s guest, with its class archive, in %.0f s%n", release.option(),
                (System.nanoTime() - start) / 1e9);
        return lab;
    }

    private static void jarTestClasses(Path classes, Path jar) throws IOException {
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(jar));
             Stream<Path> files = Files.walk(classes)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
                out.putNextEntry(new ZipEntry(classes.relativize(f).toString().replace('\\', '/')));
                Files.copy(f, out);
                out.closeEntry();
            }
        }
    }

    int guestGid4() {
        return guestGid4;
    }

    int guestGid6() {
        return guestGid6;
    }

    /** Runs {@code command} with bash in the guest, in the background; the guest kills it after {@code limitSeconds}. */
    Job guest(String name, String command, int limitSeconds) {
        return labScript(release, name, "run", "--timeout", String.valueOf(limitSeconds), command);
    }

    /** Runs {@code command} in the guest and waits for it. */
    Job.Result guestNow(String command, int limitSeconds) throws InterruptedException {
        return guest(command, command, limitSeconds).await(Duration.ofSeconds(limitSeconds + 45L));
    }

    /** The value of rxe0's port counter {@code file}, a path under /sys/class/infiniband/rxe0/ports/1/. */
    long guestCounter(String file) throws InterruptedException {
        Job.Result r = guestNow("cat /sys/class/infiniband/rxe0/ports/1/" + file, 20);
        if (r.exitCode() != 0) {
            throw new AssertionError("cannot read rxe0's counter " + file + ": " + r);
        }
        return Long.parseLong(r.output().strip());
    }

    /**
     * Reads rxe0's counter {@code file} until two reads in a row agree (at most 10 reads, each a guest command of its
     * own): whatever rxe0 still had to send or receive after the last test has gone. Fails if it never settles.
     */
    long awaitGuestCounterSteady(String file) throws InterruptedException {
        long last = guestCounter(file);
        for (int read = 1; read < 10; read++) {
            long now = guestCounter(file);
            if (now == last) {
                return now;
            }
            last = now;
        }
        throw new AssertionError("rxe0's counter " + file + " still moved after 10 reads, at " + last);
    }

    /**
     * Reads rxe0's counter {@code file} until it reaches {@code atLeast} (bounded: 60 reads and {@code limit}) while
     * {@code watched} runs (null: no job to watch); fails with the counter's last value.
     */
    void awaitGuestCounter(String file, long atLeast, Duration limit, Job watched) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        long seen = guestCounter(file);
        for (int attempt = 1; attempt < 60 && seen < atLeast && System.nanoTime() < deadline; attempt++) {
            if (watched != null && !watched.isAlive()) {
                throw new AssertionError("it ended while rxe0's counter " + file + " was " + seen + ", below " + atLeast
                        + ":\n" + watched.output());
            }
            seen = guestCounter(file);
        }
        if (seen < atLeast) {
            throw new AssertionError("rxe0's counter " + file + " stayed at " + seen + ", below " + atLeast
                    + (watched == null ? "" : ":\n" + watched.output()));
        }
    }

    /** A jrxe command in the namespace, in a JVM of its own with this test's class path. */
    Job jrxe(String name, String... args) {
        // The pairings check what both sides do, not jrxe's speed: no JIT warm-up before the peers meet (its few
        // rounds still run), which spares each jrxe command seconds of a host the guest's emulation keeps busy.
        return inNamespace(name, Map.of("JRXE_WARMUP_MS", "0"), jrxeCommand(args));
    }

    /** `jrxe ARGS` as a JVM of its own with this test's class path. */
    private static List<String> jrxeCommand(String... args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), JrxeMain.class.getName()));
        command.addAll(List.of(args));
        return command;
    }

    /** A command in the lab's namespace on this host (ip, tcpdump), in the background. */
    Job inNamespace(String name, String... command) {
        return inNamespace(name, Map.of(), List.of(command));
    }

    private Job inNamespace(String name, Map<String, String> environment, List<String> command) {
        List<String> all = new ArrayList<>(List.of("ip", "netns", "exec", release.netns()));
        all.addAll(command);
        return Job.start(name, all, environment);
    }

    /** A command in the lab's namespace on this host, waited for (at most 30 s). */
    Job.Result inNamespaceNow(String... command) throws InterruptedException {
        return inNamespace(String.join(" ", command), command).await(Duration.ofSeconds(30));
    }

    /** A jrxe command outside the namespace (decode needs no device), waited for. */
    static Job.Result jrxeHere(String... args) throws InterruptedException {
        return Job.start("jrxe " + args[0], jrxeCommand(args)).await(Duration.ofSeconds(60));
    }

    /** Waits until {@code server} (jrxe, in the namespace) listens on TCP {@code port}. */
    void awaitJrxeListening(Job server, int port) throws InterruptedException {
        awaitListening(server, port, () -> inNamespace("ss", "ss", "-Hltn", "sport = :" + port).await(Duration.ofSeconds(10)));
    }

    /** Waits until {@code server} (a guest program) listens on TCP {@code port} in the guest. */
    void awaitGuestListening(Job server, int port) throws InterruptedException {
        awaitGuestListening(server, port, READY_POLL);
    }

    /** As above, for a server that takes longer to start (a JVM in the guest under TCG: a minute or two). */
    void awaitGuestListening(Job server, int port, Duration limit) throws InterruptedException {
        awaitListening(server, port, () -> guestNow("ss -Hltn 'sport = :" + port + "'", 10), limit);
    }

    /** Waits until {@code server} (a guest program) listens with rdma_listen on {@code port}: the kernel lists its cm_id. */
    void awaitGuestCmListening(Job server, int port) throws InterruptedException {
        awaitListening(server, port, () -> guestNow("rdma res show cm_id src-port " + port, 10));
    }

    private interface Probe {
        Job.Result run() throws InterruptedException;
    }

    private static void awaitListening(Job server, int port, Probe probe) throws InterruptedException {
        awaitListening(server, port, probe, READY_POLL);
    }

    private static void awaitListening(Job server, int port, Probe probe, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        for (int attempt = 0; attempt < 300 && System.nanoTime() < deadline; attempt++) {
            if (!server.isAlive()) {
                throw new AssertionError("the server ended before it listened on port " + port + ":\n" + server.output());
            }
            Job.Result r = probe.run();
            if (r.exitCode() == 0 && !r.output().isBlank()) {
                return;
            }
            Thread.sleep(100);   // between probes only; readiness is what the probe saw
        }
        throw new AssertionError("nothing listened on port " + port + " within " + limit.toSeconds() + " s:\n" + server.output());
    }

    @Override
    public void close() {
        if (startedHere) {
            try {
                System.out.println(labScript(release, "lab down", "down").await(Duration.ofSeconds(60)).output().strip());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
