package io.jrxe.verbs.facade;

import io.jrxe.verbs.Device;
import io.jrxe.verbs.emulated.EmulatedProvider;
import io.jrxe.verbs.nativ.NativeProvider;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The jars name themselves as Java modules (Automatic-Module-Name), and two modules on the module
 * path may not share a package: verbs-api, verbs-native and verbs-facade each keep their own.
 */
class NoSplitPackageTest {
    private static Set<String> packagesOf(Class<?> anyClass) throws IOException, URISyntaxException {
        Path root = Path.of(anyClass.getProtectionDomain().getCodeSource().getLocation().toURI());
        Set<String> packages = new HashSet<>();
        if (Files.isDirectory(root)) {
            try (Stream<Path> files = Files.walk(root)) {
                files.filter(f -> f.toString().endsWith(".class"))
                        .forEach(f -> packages.add(root.relativize(f.getParent()).toString().replace('/', '.')));
            }
        } else {
            try (var jar = new java.util.jar.JarFile(root.toFile())) {
                jar.stream().map(java.util.jar.JarEntry::getName).filter(n -> n.endsWith(".class"))
                        .forEach(n -> packages.add(n.substring(0, n.lastIndexOf('/')).replace('/', '.')));
            }
        }
        return packages;
    }

    @Test
    void theVerbsModulesShareNoPackage() throws Exception {
        Set<String> api = packagesOf(Device.class);
        Set<String> facade = packagesOf(EmulatedProvider.class);
        Set<String> nativ = packagesOf(NativeProvider.class);
        assertThat(api).contains("io.jrxe.verbs");
        assertThat(facade).contains("io.jrxe.verbs.facade", "io.jrxe.verbs.emulated").doesNotContainAnyElementsOf(api)
                .doesNotContainAnyElementsOf(nativ);
        assertThat(nativ).doesNotContainAnyElementsOf(api);
    }
}
