package io.jrxe.verbs.nativ;

import io.jrxe.verbs.Device;
import io.jrxe.verbs.Pd;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeElement;
import java.lang.classfile.Instruction;
import java.lang.classfile.MethodModel;
import java.lang.classfile.Opcode;
import java.lang.classfile.instruction.ConstantInstruction;
import java.lang.classfile.instruction.FieldInstruction;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.classfile.instruction.ReturnInstruction;
import java.lang.classfile.instruction.ThrowInstruction;
import java.lang.constant.MethodTypeDesc;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The native provider's objects answer every method of the verbs API truthfully: each one either does what the
 * method says, through libibverbs or librdmacm, or refuses with a VerbsException whose errno is EOPNOTSUPP or ENOSYS
 * and whose message says why; none returns a value it made up, or silently does nothing.
 *
 * <p>Where there is no kernel RDMA device (this machine, CI) that is checked from the classes themselves: every
 * interface of io.jrxe.verbs and io.jrxe.verbs.cm has a native implementation that implements each of its methods
 * (an interface's default method counts only when it is a documented delegation to another of its methods); no
 * such implementation is an empty method or returns a constant (but the provider's own name); and one that can only
 * throw throws EOPNOTSUPP or ENOSYS. Where a kernel device exists, {@link NativeAnswersMatchTheKernelTest} asks
 * the device itself and compares the answers with the kernel's (sysfs).
 */
class NativeAnswersTruthfullyTest {
    /**
     * The default methods of the API that a provider may inherit: each only calls another method of its interface
     * (checked below), so it is as truthful as that method.
     */
    private static final Map<String, String> DELEGATING_DEFAULTS = Map.of(
            key(method(Pd.class, "regMr", MemorySegment.class, int.class)), "regMr");

    /** The methods that may return a constant, with the only constant they may return: the provider's name. */
    private static final Map<String, Object> PROVIDER_NAMES = Map.of(
            "io.jrxe.verbs.Device.provider()", NativeProvider.NAME,
            "io.jrxe.verbs.Provider.name()", NativeProvider.NAME,
            "io.jrxe.verbs.cm.RdmaCm.provider()", NativeProvider.NAME);

    @Test
    void everyApiInterfaceHasANativeImplementationOfEachOfItsMethods() throws Exception {
        List<Class<?>> natives = nativeClasses();
        List<String> missing = new ArrayList<>();
        for (Class<?> api : apiInterfaces()) {
            List<Class<?>> impls = implementationsOf(api, natives);
            if (impls.isEmpty()) {
                missing.add(api.getName() + ": no native class implements it");
            }
            for (Class<?> impl : impls) {
                for (Method m : apiMethods(api)) {
                    Method found = impl.getMethod(m.getName(), m.getParameterTypes());
                    if (found.getDeclaringClass().isInterface() && !DELEGATING_DEFAULTS.containsKey(key(m))) {
                        missing.add(impl.getSimpleName() + " inherits " + key(m) + " from " + found.getDeclaringClass().getName()
                                + ": a default that answers for every provider, whatever the device can do");
                    }
                }
            }
        }
        assertThat(missing).isEmpty();
    }

    @Test
    void theDefaultsAProviderMayInheritOnlyDelegate() throws Exception {
        for (Map.Entry<String, String> d : DELEGATING_DEFAULTS.entrySet()) {
            Method m = methodByKey(d.getKey());
            assertThat(m.isDefault()).as(d.getKey()).isTrue();
            List<Instruction> code = code(m);
            assertThat(code).as("%s calls %s", d.getKey(), d.getValue())
                    .anyMatch(i -> i instanceof InvokeInstruction call && call.opcode() == Opcode.INVOKEINTERFACE
                            && call.owner().asInternalName().equals(internalName(m.getDeclaringClass()))
                            && call.name().equalsString(d.getValue()));
            assertThat(code).as("%s returns what it calls returns, and nothing else", d.getKey())
                    .noneMatch(i -> i instanceof ConstantInstruction);
        }
    }

    @Test
    void noNativeMethodOfTheApiIsEmptyOrAConstantAndOneThatOnlyThrowsRefusesWithEopnotsuppOrEnosys() throws Exception {
        List<Class<?>> natives = nativeClasses();
        Set<String> untruthful = new TreeSet<>();
        int checked = 0;
        for (Class<?> api : apiInterfaces()) {
            for (Class<?> impl : implementationsOf(api, natives)) {
                for (Method m : apiMethods(api)) {
                    Method found = implementation(impl.getMethod(m.getName(), m.getParameterTypes()));
                    if (found.getDeclaringClass().isInterface()) {
                        continue; // a delegating default, checked above
                    }
                    checked++;
                    String where = found.getDeclaringClass().getSimpleName() + "." + found.getName() + " (" + key(m) + ")";
                    List<Instruction> code = code(found);
                    if (code.size() == 1 && code.getFirst().opcode() == Opcode.RETURN) {
                        untruthful.add(where + " does nothing");
                    } else if (code.size() == 2 && code.get(0) instanceof ConstantInstruction c
                            && code.get(1) instanceof ReturnInstruction) {
                        Object allowed = PROVIDER_NAMES.get(key(m));
                        if (allowed == null || !allowed.equals(c.constantValue())) {
                            untruthful.add(where + " returns the constant " + c.constantValue());
                        }
                    } else if (code.stream().noneMatch(i -> i instanceof ReturnInstruction)
                            && code.stream().anyMatch(i -> i instanceof ThrowInstruction) && !refusesAsUnsupported(code)) {
                        untruthful.add(where + " only throws, and not EOPNOTSUPP or ENOSYS");
                    }
                }
            }
        }
        assertThat(checked).as("native methods of the API checked").isGreaterThan(80);
        assertThat(untruthful).isEmpty();
    }

    /** Whether a method that only throws names EOPNOTSUPP or ENOSYS and gives a message. */
    private static boolean refusesAsUnsupported(List<Instruction> code) {
        boolean errno = code.stream().anyMatch(i -> i instanceof FieldInstruction f && f.opcode() == Opcode.GETSTATIC
                && f.owner().asInternalName().equals("io/jrxe/verbs/Errno")
                && (f.name().equalsString("EOPNOTSUPP") || f.name().equalsString("ENOSYS")));
        boolean message = code.stream().anyMatch(i -> i instanceof ConstantInstruction c && c.constantValue() instanceof String);
        return errno && message;
    }

    /** The API's interfaces: every public interface of io.jrxe.verbs and io.jrxe.verbs.cm (not the providers' spi). */
    static List<Class<?>> apiInterfaces() throws IOException, URISyntaxException, ClassNotFoundException {
        List<Class<?>> interfaces = new ArrayList<>();
        for (Class<?> c : classesBeside(Device.class)) {
            if (c.isInterface() && Modifier.isPublic(c.getModifiers()) && !c.isAnnotation()
                    && c.getPackageName().matches("io\\.jrxe\\.verbs(\\.cm)?")) {
                interfaces.add(c);
            }
        }
        assertThat(interfaces).as("the API's interfaces were found").hasSizeGreaterThanOrEqualTo(14);
        return interfaces;
    }

    /** The public instance methods an interface declares or inherits from the API (not Object's, not AutoCloseable's alone). */
    static List<Method> apiMethods(Class<?> api) {
        List<Method> methods = new ArrayList<>();
        for (Method m : api.getMethods()) {
            if (!Modifier.isStatic(m.getModifiers())) {
                methods.add(m);
            }
        }
        return methods;
    }

    static List<Class<?>> nativeClasses() throws IOException, URISyntaxException, ClassNotFoundException {
        return classesBeside(NativeProvider.class);
    }

    static List<Class<?>> implementationsOf(Class<?> api, List<Class<?>> classes) {
        return classes.stream().filter(c -> !c.isInterface() && api.isAssignableFrom(c)).toList();
    }

    /** The method a bridge stands for (a covariant override compiles to both). */
    private static Method implementation(Method m) {
        if (!m.isBridge()) {
            return m;
        }
        for (Method d : m.getDeclaringClass().getDeclaredMethods()) {
            if (!d.isBridge() && d.getName().equals(m.getName())
                    && List.of(d.getParameterTypes()).equals(List.of(m.getParameterTypes()))) {
                return d;
            }
        }
        return m;
    }

    static String key(Method m) {
        StringBuilder b = new StringBuilder(m.getDeclaringClass().getName()).append('.').append(m.getName()).append('(');
        Class<?>[] params = m.getParameterTypes();
        for (int i = 0; i < params.length; i++) {
            b.append(i > 0 ? "," : "").append(params[i].getSimpleName());
        }
        return b.append(')').toString();
    }

    private static Method method(Class<?> c, String name, Class<?>... params) {
        try {
            return c.getMethod(name, params);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    private static Method methodByKey(String key) throws Exception {
        for (Class<?> api : apiInterfaces()) {
            for (Method m : api.getDeclaredMethods()) {
                if (key(m).equals(key)) {
                    return m;
                }
            }
        }
        throw new AssertionError("no API method " + key);
    }

    private static String internalName(Class<?> c) {
        return c.getName().replace('.', '/');
    }

    /** A method's instructions, as javac compiled it (labels, line numbers and the like left out). */
    private static List<Instruction> code(Method m) throws IOException {
        Class<?> c = m.getDeclaringClass();
        ClassModel model;
        try (InputStream in = c.getClassLoader().getResourceAsStream(internalName(c) + ".class")) {
            assertThat(in).as("the class file of %s", c).isNotNull();
            model = ClassFile.of().parse(in.readAllBytes());
        }
        MethodTypeDesc descriptor = MethodTypeDesc.of(m.getReturnType().describeConstable().orElseThrow(),
                Stream.of(m.getParameterTypes()).map(p -> p.describeConstable().orElseThrow()).toArray(java.lang.constant.ClassDesc[]::new));
        for (MethodModel mm : model.methods()) {
            if (mm.methodName().equalsString(m.getName()) && mm.methodTypeSymbol().equals(descriptor)) {
                List<Instruction> code = new ArrayList<>();
                for (CodeElement e : mm.code().orElseThrow()) {
                    if (e instanceof Instruction i) {
                        code.add(i);
                    }
                }
                return code;
            }
        }
        throw new AssertionError("no " + m + " in the class file of " + c);
    }

    /** Every class compiled from the main sources of the directory or jar {@code anyClass} came from. */
    private static List<Class<?>> classesBeside(Class<?> anyClass) throws IOException, URISyntaxException, ClassNotFoundException {
        Path root = Path.of(anyClass.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> names = new ArrayList<>();
        if (Files.isDirectory(root)) {
            try (Stream<Path> files = Files.walk(root)) {
                files.filter(f -> f.toString().endsWith(".class"))
                        .forEach(f -> names.add(root.relativize(f).toString().replace('/', '.')));
            }
        } else {
            try (JarFile jar = new JarFile(root.toFile())) {
                jar.stream().map(e -> e.getName()).filter(n -> n.endsWith(".class")).forEach(n -> names.add(n.replace('/', '.')));
            }
        }
        List<Class<?>> classes = new ArrayList<>();
        for (String n : names) {
            if (n.endsWith("module-info.class") || n.endsWith("package-info.class")) {
                continue;
            }
            classes.add(Class.forName(n.substring(0, n.length() - ".class".length()), false, anyClass.getClassLoader()));
        }
        return classes;
    }
}
