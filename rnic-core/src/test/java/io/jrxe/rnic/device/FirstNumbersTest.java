package io.jrxe.rnic.device;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicExecutor;
import io.jrxe.rnic.NicResources;
import io.jrxe.rnic.Nics;
import io.jrxe.rnic.memory.AccessError;
import io.jrxe.rnic.memory.MemoryKey;
import io.jrxe.rnic.memory.MptEntry;
import io.jrxe.rnic.memory.ProtectionDomain;
import io.jrxe.rnic.queue.CompletionQueue;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A device's configuration says where its QP numbers and key indexes start: two devices set apart hand out numbers
 * of their own, and keys below the first index reach nothing.
 */
class FirstNumbersTest {
    private static final QpCapabilities CAPS = new QpCapabilities(2, 2, 1, 1, 0);
    private final Arena arena = Arena.ofConfined();

    @AfterEach
    void close() {
        arena.close();
    }

    private NicResources device(DeviceConfig config) {
        return Nics.resources(config, NicExecutor.INLINE);
    }

    @Test
    void devicesAlikeNumberAlikeAndDevicesSetApartDoNot() throws Exception {
        InetAddress address = InetAddress.getByName("127.0.0.1");
        NicResources plain = device(DeviceConfig.of("jrxe0", address));
        NicResources apart = device(DeviceConfig.of("jrxe1", address).withFirstNumbers(0x42, 0x20));

        assertThat(qpn(plain)).isEqualTo(NicResources.FIRST_QPN);
        assertThat(qpn(apart)).isEqualTo(0x42);
        assertThat(qpn(apart)).isEqualTo(0x43);

        MptEntry first = register(plain);
        MptEntry theirs = register(apart);
        assertThat(MemoryKey.index(first.key())).isEqualTo(1);
        assertThat(MemoryKey.index(theirs.key())).isEqualTo(0x20);
        assertThat(MemoryKey.index(register(apart).key())).isEqualTo(0x21);

        // A key of the other device's numbering reaches nothing here, and no index below the first one is looked past.
        assertThat(apart.memory().lookup(first.key())).isNull();
        assertThat(apart.memory().check(first.key(), theirs.pd(), 0, 8, Access.LOCAL_WRITE, false))
                .isEqualTo(AccessError.KEY_NOT_FOUND);
        assertThat(apart.memory().lookup(MemoryKey.of(0x1F, 0))).isNull();
    }

    @Test
    void aFirstIndexBeyondTheTablesFirstSizeHandsOutKeysAndRefusesTheOnesBelow() throws Exception {
        NicResources far = device(DeviceConfig.of("jrxe2", InetAddress.getByName("127.0.0.1")).withFirstNumbers(0x11, 5000));
        ProtectionDomain pd = far.allocatePd();
        // Before any registration, a key below the first index is refused, not an index outside the table.
        assertThat(far.memory().check(MemoryKey.of(4000, 1), pd, 0, 8, Access.LOCAL_WRITE, false))
                .isEqualTo(AccessError.KEY_NOT_FOUND);
        MptEntry mr = far.memory().registerMr(pd, arena.allocate(4096, 4096), 0, Access.LOCAL_WRITE);
        assertThat(MemoryKey.index(mr.key())).isEqualTo(5000);
        assertThat(far.memory().lookup(mr.key())).isSameAs(mr);
        assertThat(far.memory().lookup(MemoryKey.of(4999, MemoryKey.variant(mr.key())))).isNull();
    }

    @Test
    void numbersOutsideTheirRangesAreRefusedSayingWhich() throws Exception {
        DeviceConfig config = DeviceConfig.of("jrxe3", InetAddress.getByName("127.0.0.1"));
        assertThatThrownBy(() -> config.withFirstNumbers(0x10, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("device jrxe3: the first QP number 0x10 is outside 0x11..0xffffff");
        assertThatThrownBy(() -> config.withFirstNumbers(0x11, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("device jrxe3: the first key index 0 is outside 1..16777215");
    }

    private int qpn(NicResources rnic) throws Exception {
        ProtectionDomain pd = rnic.allocatePd();
        CompletionQueue cq = rnic.createCq(4, null);
        return Nics.createQp(rnic, pd, QpType.RC, cq, cq, null, CAPS, false).qpn();
    }

    private MptEntry register(NicResources rnic) throws Exception {
        MemorySegment memory = arena.allocate(4096, 4096);
        return rnic.memory().registerMr(rnic.allocatePd(), memory, memory.address(), Access.LOCAL_WRITE);
    }
}
