package io.jrxe.it.interop;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Gives tests the one {@link Lab} of the whole run for their class's release ({@link OnLabRelease},
 * else {@link LabRelease#ofUnnamed()}): booted on first use, stopped when the run ends (JUnit
 * closes what the root store holds), one lab per release. Where the lab cannot run (not root, no
 * /dev/net/tun, no qemu, ...) a test is skipped with {@code SKIPPED: <reason>}; with
 * {@code -Djrxe.interop=required} (the Maven profile {@code interop}) it fails instead.
 */
public final class LabExtension implements BeforeEachCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(LabExtension.class);

    private sealed interface State {
    }

    private record Ready(Lab lab) implements State, AutoCloseable {
        @Override
        public void close() {
            lab.close();
        }
    }

    private record Unavailable(String reason) implements State {
    }

    private record Broken(Throwable cause) implements State {
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == Lab.class;
    }

    /** Skips or fails before the test runs (an exception from a parameter resolver would be an error, never a skip). */
    @Override
    public void beforeEach(ExtensionContext context) {
        switch (state(context)) {
            case Ready ready -> {
            }
            case Unavailable unavailable -> {
                if (required()) {
                    throw new AssertionError("the interop tests are required (-Pinterop) but cannot run: " + unavailable.reason());
                }
                Assumptions.abort(unavailable.reason());
            }
            case Broken broken -> throw new AssertionError("the lab did not come up", broken.cause());
        }
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        if (state(context) instanceof Ready ready) {
            return ready.lab();
        }
        throw new IllegalStateException("no lab: beforeEach should have stopped this test");
    }

    /**
     * The state of the lab of the test class's release. One lab is up at a time: an idle guest under
     * TCG still takes about a fifth of a core (its timers, the agent polling for jobs), which the
     * tests of the other release would miss; so a lab of another release that this run booted is
     * stopped first. {@link LabReleaseClassOrder} runs each release's classes together, so that
     * happens once a run.
     */
    private static State state(ExtensionContext context) {
        LabRelease release = release(context.getRequiredTestClass());
        ExtensionContext.Store store = context.getRoot().getStore(NAMESPACE);
        for (LabRelease other : LabRelease.values()) {
            if (other != release && store.get(other, State.class) instanceof Ready ready) {
                store.remove(other, State.class);
                ready.close();
            }
        }
        return store.getOrComputeIfAbsent(release, LabExtension::start, State.class);
    }

    /** The release whose lab {@code testClass} runs against. */
    static LabRelease release(Class<?> testClass) {
        return AnnotationSupport.findAnnotation(testClass, OnLabRelease.class).map(OnLabRelease::value)
                .orElseGet(LabRelease::ofUnnamed);
    }

    private static boolean required() {
        return "required".equals(System.getProperty("jrxe.interop"));
    }

    private static State start(LabRelease release) {
        try {
            String reason = Lab.unavailableBecause(release);
            if (reason != null) {
                System.out.println("SKIPPED: interop with kernel rxe (" + release.option() + "): " + reason);
                return new Unavailable(reason);
            }
            return new Ready(Lab.up(release));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Broken(e);
        } catch (RuntimeException | AssertionError e) {
            return new Broken(e);
        }
    }
}
