package io.jrxe.wire.opcode;

/** The service type in the top three bits of a BTH opcode (IBTA 9.2.1, table 38). */
public enum Transport {
    RC("Reliable Connection"),
    UC("Unreliable Connection"),
    RD("Reliable Datagram"),
    UD("Unreliable Datagram"),
    /** RoCEv2 congestion notification packets (opcode 0x81, IBTA annex A17). */
    CNP("Congestion Notification");

    private final String description;

    Transport(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
