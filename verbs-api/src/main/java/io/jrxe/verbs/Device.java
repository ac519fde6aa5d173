package io.jrxe.verbs;

/** An RDMA device as ibv_get_device_list lists it: open it to use it. */
public interface Device {
    /** The name libibverbs would list: jrxe0, rxe0, ... */
    String name();

    /** The node GUID, as ibv_get_device_guid returns it. */
    long guid();

    /** "emulated" (jrxe's own NIC) or "native" (a kernel device through libibverbs). */
    String provider();

    /** ibv_open_device: a context to query the device and create resources on it. */
    Context open() throws VerbsException;
}
