package io.jrxe.verbs;

/** An RDMA device as ibv_get_device_list lists it: open it to use it. */
public interface Device {
    String name();

    /** The node GUID, as ibv_get_device_guid returns it. */
    long guid();

    /** "emulated" (jrxe's own NIC) or "native" (a kernel device through libibverbs). */
    String provider();

    Context open() throws VerbsException;
}
