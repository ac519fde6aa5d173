package io.jrxe.verbs;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The verbs API is a library of its own: a user compiles against it without the emulator. Its
 * pom has no dependency, so no rnic-core or wire type can be on this test's classpath; and every
 * public signature of its classes names only io.jrxe.verbs types (with io.jrxe.verbs.cm, the connection
 * manager's, and io.jrxe.verbs.spi, what providers use) and the JDK's. It says only what every provider can
 * honour: no public name speaks of what only jrxe's emulated NIC can do (its MTT, its vendor_err meanings, ...),
 * and a program cannot write a completion, only read and copy one.
 */
class ApiSpeaksItsOwnVocabularyTest {
    @Test
    void theEmulatorAndTheWireAreNotOnTheApisClasspath() {
        assertThatThrownBy(() -> Class.forName("io.jrxe.rnic.NicResources")).isInstanceOf(ClassNotFoundException.class);
        assertThatThrownBy(() -> Class.forName("io.jrxe.wire.opcode.Opcode")).isInstanceOf(ClassNotFoundException.class);
    }

    @Test
    void everyPublicSignatureNamesOnlyApiAndJdkTypes() throws Exception {
        List<Class<?>> classes = apiClasses();
        assertThat(classes).as("the API's classes were found").contains(Context.class, SendWr.class, Errno.class,
                io.jrxe.verbs.cm.CmId.class);
        List<String> foreign = new ArrayList<>();
        for (Class<?> c : classes) {
            assertThat(c.getPackageName()).as(c.getName()).matches("io\\.jrxe\\.verbs(\\.cm|\\.spi|\\.idle)?");
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

    /**
     * Words that name an ability only jrxe's emulated NIC has, with why a kernel device cannot honour it. Such an
     * ability belongs to the emulated provider's extension (io.jrxe.verbs.emulated.EmulatedExtension), never here.
     */
    private static final Map<String, String> EMULATOR_ONLY = Map.of(
            "translat", "the MTT walk: a kernel device's translation tables are not visible to user space",
            "mtt", "the NIC's memory translation table: ibv_device_attr has no field for it",
            "mpt", "the NIC's memory protection table: not visible through libibverbs",
            "accesserror", "jrxe's reason codes for a refused access: a kernel device's vendor_err is its vendor's own",
            "meaning", "vendor_err's meaning: vendor-specific, jrxe's only on a jrxe NIC",
            "sleep", "a CQ that wakes its poller by itself: libibverbs wakes a poller through a completion channel only",
            "emulat", "the emulator itself: the API is the same for every provider");

    @Test
    void noPublicNameSpeaksOfWhatOnlyTheEmulatorCanDo() throws Exception {
        Set<String> found = new TreeSet<>();
        for (Class<?> c : apiClasses()) {
            if (!visible(c.getModifiers())) {
                continue;
            }
            publicNames(c).forEach((where, name) -> EMULATOR_ONLY.forEach((word, why) -> {
                if (hasWordStarting(name, word)) {
                    found.add(where + " (\"" + word + "\": " + why + ")");
                }
            }));
        }
        assertThat(found).as("names in the verbs API of what only jrxe's emulated NIC can do").isEmpty();
    }

    /**
     * Whether a word of {@code name} (split where a capital, a dot, a '$' or an '_' begins one) starts with
     * {@code word}, the words after it included: "vendorErrMeaning" has "meaning", "AccessError" has
     * "accesserror", "isEmpty" has no "mpt".
     */
    static boolean hasWordStarting(String name, String word) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            char before = i == 0 ? '.' : name.charAt(i - 1);
            boolean starts = i == 0 || Character.isUpperCase(c) && !Character.isUpperCase(before)
                    || before == '.' || before == '$' || before == '_';
            if (starts && name.substring(i).toLowerCase(Locale.ROOT).startsWith(word)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void aWordIsFoundWhereAWordStartsOnly() {
        assertThat(hasWordStarting("vendorErrMeaning", "meaning")).isTrue();
        assertThat(hasWordStarting("io.jrxe.verbs.AccessError", "accesserror")).isTrue();
        assertThat(hasWordStarting("MTTEntries", "mtt")).isTrue();
        assertThat(hasWordStarting("isEmpty", "mpt")).isFalse();
    }

    @Test
    void aProgramReadsAndCopiesCompletionsButCannotWriteOne() {
        List<String> writers = new ArrayList<>();
        for (Method m : WorkCompletion.class.getDeclaredMethods()) {
            boolean copy = m.getName().equals("copyFrom") && m.getParameterCount() == 1
                    && m.getParameterTypes()[0] == WorkCompletion.class;
            if (visible(m.getModifiers()) && !Modifier.isStatic(m.getModifiers()) && m.getParameterCount() > 0 && !copy) {
                writers.add(m.toString());
            }
        }
        for (Field f : WorkCompletion.class.getDeclaredFields()) {
            if (visible(f.getModifiers()) && !Modifier.isFinal(f.getModifiers())) {
                writers.add(f.toString());
            }
        }
        assertThat(writers).as("WorkCompletion's public ways to change it (providers fill it through WorkCompletionFiller)")
                .isEmpty();
    }

    /**
     * A public class's names, each with where it stands: the class's own, its public members' and record
     * components', and the types its public signatures name.
     */
    private static Map<String, String> publicNames(Class<?> c) {
        Map<String, String> names = new LinkedHashMap<>();
        names.put(c.getName(), c.getSimpleName());
        for (Method m : c.getDeclaredMethods()) {
            if (visible(m.getModifiers()) && !m.isSynthetic()) {
                names.put(c.getName() + "." + m.getName() + "()", m.getName());
            }
        }
        for (Field f : c.getDeclaredFields()) {
            if (visible(f.getModifiers()) && !f.isSynthetic()) {
                names.put(c.getName() + "." + f.getName(), f.getName());
            }
        }
        if (c.isRecord()) {
            for (RecordComponent r : c.getRecordComponents()) {
                names.put(c.getName() + " component " + r.getName(), r.getName());
            }
        }
        for (Type t : signatureTypes(c)) {
            names.put(c.getName() + " names " + t.getTypeName(), t.getTypeName());
        }
        return names;
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
