package io.jrxe.verbs.sim;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.wire.port.PeerAddress;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Several emulated NICs ({@link UdNode}s) on one fixture wire ({@link FixtureWire}): the fixture of the multicast
 * tests. Everything runs on the test's thread, in virtual time on the simulated network.
 */
final class UdNodes implements AutoCloseable {
    private static final AtomicLong NAMES = new AtomicLong();

    private final FixtureWire wire;
    final List<UdNode> nodes = new ArrayList<>();
    private final Arena arena = Arena.ofShared();

    UdNodes(long seed) {
        wire = new FixtureWire(seed);
    }

    UdNode add(String address, int qps) throws Exception {
        UdNode n = new UdNode(wire.device(DeviceConfig.of("mc" + NAMES.incrementAndGet(), InetAddress.getByName(address))
                .withInterfaceMtu(1500)), qps, arena);
        nodes.add(n);
        return n;
    }

    /**
     * Runs time for a while, collecting every node's completions, after which the test asserts that {@code seen} came
     * about (and perhaps that nothing else did): on the shared-memory wire the wait is first for {@code seen}.
     */
    void run(long virtualNanos, BooleanSupplier seen) {
        wire.awaitOnShm(this::drain, seen);
        wire.runFor(this::drain, virtualNanos);
    }

    private void drain() {
        nodes.forEach(UdNode::drain);
    }

    /**
     * Asserts that the devices at exactly these addresses are members of {@code group}: the simulated network's list
     * (in the order they joined), or on the shared-memory wire the group's member rings.
     */
    void assertMembers(PeerAddress group, String... addresses) {
        if (!wire.shm()) {
            assertThat(wire.network.members(group)).as("the group's members")
                    .containsExactly(Arrays.stream(addresses).map(PeerAddress::of).toArray(PeerAddress[]::new));
            return;
        }
        try {
            assertThat(wire.rings().members(group)).as("the group's member rings").containsExactlyInAnyOrder(
                    Arrays.stream(addresses).map(a -> wire.rings().ringOf(PeerAddress.of(a), PeerAddress.ROCE_PORT))
                            .toArray(Path[]::new));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        wire.close();
        arena.close();
    }
}
