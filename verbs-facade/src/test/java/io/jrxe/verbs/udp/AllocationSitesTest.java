package io.jrxe.verbs.udp;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The allocation report InvokedDeviceTest gives when its data path allocates: it names what (as the JVM spells the class: [J is long[]) and where. */
class AllocationSitesTest {
    static volatile Object sink;

    @Test
    void aLoopThatMakesArraysIsItsHeaviestSite() {
        String top;
        try (AllocationSites sites = AllocationSites.start()) {
            for (int i = 0; i < 200_000; i++) {
                sink = new long[64];
            }
            top = sites.top(3);
        }
        assertThat(top.lines().findFirst()).hasValueSatisfying(line -> assertThat(line)
                .contains("[J <- io.jrxe.verbs.udp.AllocationSitesTest.aLoopThatMakesArraysIsItsHeaviestSite"));
    }
}
