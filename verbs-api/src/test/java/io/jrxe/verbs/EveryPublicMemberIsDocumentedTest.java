package io.jrxe.verbs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.DocumentationTool;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The API is documented: javadoc's "missing" check finds no public or protected type, method,
 * constructor, field or enum constant of io.jrxe.verbs without a comment. (The build runs
 * javadoc without that check, because it also wants @param and @return on one-line accessors.)
 */
class EveryPublicMemberIsDocumentedTest {
    @Test
    void javadocFindsNoMemberWithoutAComment(@TempDir Path out) throws Exception {
        DocumentationTool javadoc = ToolProvider.getSystemDocumentationTool();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        List<Path> sources;
        try (Stream<Path> files = Files.walk(Path.of("src/main/java/io/jrxe/verbs"))) {
            sources = files.filter(p -> p.toString().endsWith(".java")).toList();
        }
        assertThat(sources).hasSizeGreaterThan(30);
        try (StandardJavaFileManager files = javadoc.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
            boolean ok = javadoc.getTask(null, files, diagnostics, null,
                    List.of("-Xdoclint:missing", "-Xmaxwarns", "100000", "-quiet", "-d", out.toString()),
                    files.getJavaFileObjectsFromPaths(sources)).call();
            assertThat(ok).as("%s", diagnostics.getDiagnostics()).isTrue();
        }
        List<String> undocumented = diagnostics.getDiagnostics().stream()
                .filter(d -> d.getKind() == Diagnostic.Kind.WARNING)
                .filter(d -> {
                    String m = d.getMessage(Locale.ROOT);
                    return m.contains("no comment") || m.contains("default constructor");
                })
                .map(d -> d.getSource().getName() + ":" + d.getLineNumber() + " " + d.getMessage(Locale.ROOT))
                .toList();
        assertThat(undocumented).isEmpty();
    }
}
