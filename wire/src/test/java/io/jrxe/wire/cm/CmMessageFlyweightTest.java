package io.jrxe.wire.cm;

import io.jrxe.wire.header.FlyweightHarness;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every CM message flyweight against IBTA's layout ({@link CmLayouts}): each accessor reads and
 * writes exactly its bits, setters drop what does not fit and leave the neighbours alone, and the
 * field table the dissector walks covers the 232 bytes once.
 */
class CmMessageFlyweightTest {
    // 232-byte messages with up to 80 fields: fewer iterations than the 12-byte headers get, still thousands of writes.
    private static final int ROUND_TRIPS = 150;
    private static final int DECODES = 400;
    private static final Set<String> NOT_FIELDS = Set.of("fits", "length", "offset", "buffer", "attribute", "fields",
            "privateDataLength", "privateDataOffset", "hashCode", "toString", "getClass");

    static List<CmAttribute> messages() {
        return Arrays.stream(CmAttribute.values()).filter(CmAttribute::isMessage).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("messages")
    void everyFieldRoundTripsWithoutDisturbingItsNeighbours(CmAttribute attribute) {
        CmLayouts.of(attribute).harness().checkEveryFieldRoundTrips(FlyweightHarness.seed(), ROUND_TRIPS);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("messages")
    void gettersDecodeRandomBytesAsIbtaLaysThemOut(CmAttribute attribute) {
        CmLayouts.of(attribute).harness().checkDecodesRandomBytes(FlyweightHarness.seed(), DECODES);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("messages")
    void theFieldTableCoversTheMessageOnceInWireOrder(CmAttribute attribute) {
        List<CmField> fields = attribute.fields();
        boolean[] covered = new boolean[CmMessageFlyweight.LENGTH * 8];
        int previous = -1;
        Set<String> names = new HashSet<>();
        for (CmField f : fields) {
            assertThat(f.bitPosition()).as("%s comes after the field before it", f).isGreaterThan(previous);
            previous = f.bitPosition();
            assertThat(names.add(f.name())).as("%s named once", f).isTrue();
            for (int bit = f.bitPosition(); bit < f.bitPosition() + f.width(); bit++) {
                assertThat(covered[bit]).as("bit %d of %s claimed twice (%s)", bit, attribute, f).isFalse();
                covered[bit] = true;
            }
        }
        for (int bit = 0; bit < covered.length; bit++) {
            assertThat(covered[bit]).as("bit %d of %s belongs to no field", bit, attribute).isTrue();
        }
        assertThat(fields.getLast().name()).isEqualTo("private_data");
    }

    /** So that no accessor escapes the checks above: every public field accessor is in the expected layout. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("messages")
    void everyPublicAccessorIsInTheExpectedLayout(CmAttribute attribute) {
        ExpectedLayout<?> layout = CmLayouts.of(attribute);
        Class<?> type = layout.harness().factory().get().getClass();
        Set<String> accessors = new TreeSet<>();
        for (Method m : type.getMethods()) {
            if (Modifier.isStatic(m.getModifiers()) || NOT_FIELDS.contains(m.getName())) {
                continue;
            }
            if (m.getParameterCount() == 0 && m.getReturnType() != void.class) {
                accessors.add(m.getName());
            } else if (m.getName().startsWith("get") && m.getParameterCount() == 2) {
                accessors.add(Character.toLowerCase(m.getName().charAt(3)) + m.getName().substring(4));
            }
        }
        assertThat(accessors).as("%s accessors", type.getSimpleName()).isEqualTo(new TreeSet<>(layout.accessorNames()));
    }
}
