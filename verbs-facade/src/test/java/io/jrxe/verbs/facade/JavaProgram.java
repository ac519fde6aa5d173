package io.jrxe.verbs.facade;

import io.jrxe.verbs.*;

import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A program a user would write, compiled with javax.tools against this test's classpath and run
 * in a JVM of its own, as {@code java -cp ...} would: its exit status and output are what a user sees.
 */
final class JavaProgram {
    record Result(int exitCode, String stdout, String stderr) {
    }

    private final Path classes;
    private final String mainClass;

    private JavaProgram(Path classes, String mainClass) {
        this.classes = classes;
        this.mainClass = mainClass;
    }

    /** Compiles one source file's text; the diagnostics are the failure's message. */
    static JavaProgram compile(String mainClass, String source, Path into) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        String simpleName = mainClass.substring(mainClass.lastIndexOf('.') + 1);
        JavaFileObject file = new SimpleJavaFileObject(URI.create("string:///" + simpleName + ".java"),
                JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return source;
            }
        };
        Files.createDirectories(into);
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8)) {
            List<String> options = List.of("-classpath", System.getProperty("java.class.path"), "-d", into.toString(),
                    "-Xlint:all", "-Werror");
            boolean ok = javac.getTask(null, files, diagnostics, options, null, List.of(file)).call();
            if (!ok) {
                throw new AssertionError("the program does not compile: " + diagnostics.getDiagnostics());
            }
        }
        return new JavaProgram(into, mainClass);
    }

    /** Runs the program with the test's classpath and the arguments; at most two minutes. */
    Result run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp",
                classes + java.io.File.pathSeparator + System.getProperty("java.class.path"), mainClass));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(classes, "stdout", ".txt");
        Path err = Files.createTempFile(classes, "stderr", ".txt");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError(mainClass + " did not end within two minutes; stderr: " + Files.readString(err));
        }
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    /**
     * Two loopback addresses that no other test of this machine is likely to bind at the same
     * time (builds run side by side here): 127.X.Y.1 and 127.X.Y.2 with X in 200..249.
     */
    static String[] loopbackPair() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        String net = "127." + (200 + r.nextInt(50)) + "." + r.nextInt(256) + ".";
        return new String[] {net + "1", net + "2"};
    }

    /** The repository's root: the parent of this module's directory, where Maven runs the tests. */
    static Path repositoryRoot() {
        return Path.of("").toAbsolutePath().getParent();
    }
}
