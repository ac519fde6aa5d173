package io.jrxe.verbs;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The verbs API is a library of its own: a user compiles against it without the emulator. Its
 * pom has no dependency, so no rnic-core or wire type can be on this test's classpath; and every
 * public signature of its classes names only io.jrxe.verbs types (with io.jrxe.verbs.cm, the connection
 * manager's, and io.jrxe.verbs.spi, what providers use) and the JDK's.
 */
class ApiSpeaksItsOwnVocabularyTest {
    @Test
    void theEmulatorAndTheWireAreNotOnTheApisClasspath() {
        assertThatThrownBy(() -> Class.forName("io.jrxe.rnic.Rnic")).isInstanceOf(ClassNotFoundException.class);
        assertThatThrownBy(() -> Class.forName("io.jrxe.wire.opcode.Opcode")).isInstanceOf(ClassNotFoundException.class);
    }

    @Test
    void everyPublicSignatureNamesOnlyApiAndJdkTypes() throws Exception {
        List<Class<?>> classes = apiClasses();
        assertThat(classes).as("the API's classes were found").contains(Context.class, SendWr.class, Errno.class,
                io.jrxe.verbs.cm.CmId.class);
        List<String> foreign = new ArrayList<>();
        for (Class<?> c : classes) {
            assertThat(c.getPackageName()).as(c.getName()).matches("io\\.jrxe\\.verbs(\\.cm|\\.spi)?");
            if (!visible(c.getModifiers()) && c.getEnclosingClass() != null) {
                continue;
            }
            for (Type t : signatureTypes(c)) {
                String name = t.getTypeName();
                if (name.matches("(?s).*\\bio\\.jrxe\\.(?!verbs\\.)[a-z].*")) {
                    foreign.add(c.getName() + " names " + name);
                }
            }
        }
        assertThat(foreign).isEmpty();
    }

    private static boolean visible(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    private static List<Type> signatureTypes(Class<?> c) {
        List<Type> types = new ArrayList<>();
        if (c.getGenericSuperclass() != null) {
            types.add(c.getGenericSuperclass());
        }
        types.addAll(List.of(c.getGenericInterfaces()));
        for (Method m : c.getDeclaredMethods()) {
            if (visible(m.getModifiers())) {
                types.add(m.getGenericReturnType());
                types.addAll(List.of(m.getGenericParameterTypes()));
                types.addAll(List.of(m.getGenericExceptionTypes()));
            }
        }
        for (Constructor<?> k : c.getDeclaredConstructors()) {
            if (visible(k.getModifiers())) {
                types.addAll(List.of(k.getGenericParameterTypes()));
                types.addAll(List.of(k.getGenericExceptionTypes()));
            }
        }
        for (Field f : c.getDeclaredFields()) {
            if (visible(f.getModifiers())) {
                types.add(f.getGenericType());
            }
        }
        return types;
    }

    /** Every class compiled from verbs-api's main sources (the directory or jar Context came from). */
    private static List<Class<?>> apiClasses() throws IOException, URISyntaxException, ClassNotFoundException {
        Path root = Path.of(Context.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Class<?>> classes = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String relative = root.relativize(p).toString();
                if (relative.equals("module-info.class") || relative.endsWith("package-info.class")) {
                    continue;
                }
                String name = relative.substring(0, relative.length() - ".class".length()).replace('/', '.');
                classes.add(Class.forName(name, false, Context.class.getClassLoader()));
            }
        }
        return classes;
    }
}
