package io.jrxe.verbs;

/** The GID types of a RoCE port's GID table. */
public enum GidType {
    /** RoCE v1: IB GRH over Ethernet (EtherType 0x8915); jrxe lists it but sends RoCEv2 only. */
    ROCE_V1("RoCE v1"),
    /** RoCE v2: over UDP port 4791. */
    ROCE_V2("RoCE v2");

    private final String label;

    GidType(String label) {
        this.label = label;
    }

    /** The name ibv_devinfo and sysfs use ("RoCE v2"). */
    public String label() {
        return label;
    }
}
