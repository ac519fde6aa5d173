package io.jrxe.verbs.nativ;

import io.jrxe.verbs.Context;
import io.jrxe.verbs.Device;
import io.jrxe.verbs.VerbsException;

import io.jrxe.verbs.nativ.abi.IbvDevice;
import io.jrxe.verbs.nativ.codec.NativeOrder;

import java.lang.foreign.MemorySegment;

/** A kernel RDMA device (struct ibv_device) as libibverbs lists it. */
public final class NativeDevice implements Device {
    private final Ibverbs lib;
    private final MemorySegment device;
    private final String name;
    private final long guid;
    private final String sysfsPath;

    NativeDevice(Ibverbs lib, MemorySegment device, String name, long guid, String sysfsPath) {
        this.lib = lib;
        this.device = device;
        this.name = name;
        this.guid = guid;
        this.sysfsPath = sysfsPath;
    }

    /** The device at {@code device} (a struct ibv_device *), its name, GUID and sysfs directory read. */
    static NativeDevice of(Ibverbs lib, MemorySegment device) {
        MemorySegment dev = device.reinterpret(IbvDevice.SIZE);
        String name = dev.asSlice(IbvDevice.NAME, 64).getString(0);
        String sysfs = dev.asSlice(IbvDevice.IBDEV_PATH, 256).getString(0);
        long guid = NativeOrder.fromBe64((long) lib.call("ibv_get_device_guid", dev).value());
        return new NativeDevice(lib, dev, name, guid, sysfs);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long guid() {
        return guid;
    }

    @Override
    public String provider() {
        return NativeProvider.NAME;
    }

    /** The device's directory under /sys/class/infiniband (its counters are there). */
    public String sysfsPath() {
        return sysfsPath;
    }

    @Override
    public Context open() throws VerbsException {
        return new NativeContext(this, lib, lib.create("ibv_open_device", device), true);
    }

    @Override
    public String toString() {
        return name;
    }
}
