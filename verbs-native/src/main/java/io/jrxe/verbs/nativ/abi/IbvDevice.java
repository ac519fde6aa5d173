package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct ibv_device: a kernel device as ibv_get_device_list lists it (names and sysfs paths). */
public final class IbvDevice {
    public static final MemoryLayout LAYOUT = struct("ibv_device",
            struct("_ops", POINTER.withName("_dummy1"), POINTER.withName("_dummy2")),
            ENUM.withName("node_type"),
            ENUM.withName("transport_type"),
            array(64, U8, "name"),
            array(64, U8, "dev_name"),
            array(256, U8, "dev_path"),
            array(256, U8, "ibdev_path"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long NODE_TYPE = offset(LAYOUT, "node_type");
    public static final long TRANSPORT_TYPE = offset(LAYOUT, "transport_type");
    public static final long NAME = offset(LAYOUT, "name");
    public static final long DEV_NAME = offset(LAYOUT, "dev_name");
    public static final long DEV_PATH = offset(LAYOUT, "dev_path");
    public static final long IBDEV_PATH = offset(LAYOUT, "ibdev_path");

    private IbvDevice() {
    }
}
