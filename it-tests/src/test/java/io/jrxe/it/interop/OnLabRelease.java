package io.jrxe.it.interop;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Which release's lab {@link LabExtension} gives a test class; a class without it gets
 * {@link LabRelease#ofUnnamed()} (bookworm unless -Djrxe.lab.release says otherwise).
 */
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@interface OnLabRelease {
    LabRelease value();
}
