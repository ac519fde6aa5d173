package io.jrxe.it.interop;

import org.junit.jupiter.api.ClassDescriptor;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.ClassOrdererContext;

import java.util.Comparator;

/**
 * The order of this module's test classes (junit-platform.properties names it): the ones that run
 * against the default lab release (and every test class that needs no lab) first, those of
 * another release ({@link OnLabRelease}) after them, each group in the order JUnit found it. So
 * a run switches labs at most once ({@link LabExtension} stops one before booting the other).
 */
public final class LabReleaseClassOrder implements ClassOrderer {
    @Override
    public void orderClasses(ClassOrdererContext context) {
        LabRelease first = LabRelease.ofUnnamed();
        // List.sort is stable: within each group the discovery order stays.
        context.getClassDescriptors().sort(Comparator.comparingInt((ClassDescriptor d) ->
                LabExtension.release(d.getTestClass()) == first ? 0 : LabExtension.release(d.getTestClass()).ordinal() + 1));
    }
}
