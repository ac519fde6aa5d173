package io.jrxe.verbs.nativ;

import io.jrxe.verbs.Context;
import io.jrxe.verbs.Device;
import io.jrxe.verbs.VerbsException;

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
        return new NativeContext(this, lib, lib.create("ibv_open_device", device));
    }

    @Override
    public String toString() {
        return name;
    }
}
