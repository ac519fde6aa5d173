package io.jrxe.verbs;

/** IB path MTUs (libibverbs' enum ibv_mtu, same values). */
public enum Mtu {
    /** 256 bytes. */
    MTU_256(1, 256),
    /** 512 bytes. */
    MTU_512(2, 512),
    /** 1024 bytes. */
    MTU_1024(3, 1024),
    /** 2048 bytes. */
    MTU_2048(4, 2048),
    /** 4096 bytes. */
    MTU_4096(5, 4096);

    /** Bytes rxe keeps for headers below the IB payload: Ethernet, IP, UDP, BTH and more. */
    public static final int RXE_HEADROOM = 80;

    private final int verbsValue;
    private final int bytes;

    Mtu(int verbsValue, int bytes) {
        this.verbsValue = verbsValue;
        this.bytes = bytes;
    }

    /** The value of libibverbs' enum ibv_mtu (1 for 256 bytes ... 5 for 4096). */
    public int verbsValue() {
        return verbsValue;
    }

    /** The MTU in bytes of payload per packet. */
    public int bytes() {
        return bytes;
    }

    /** The MTU of a libibverbs value; IllegalArgumentException out of 1..5. */
    public static Mtu ofVerbsValue(int value) {
        for (Mtu m : values()) {
            if (m.verbsValue == value) {
                return m;
            }
        }
        throw new IllegalArgumentException("path MTU enum value " + value + " is out of range 1..5 (256..4096 bytes)");
    }

    /** The MTU of a size in bytes; IllegalArgumentException for a size that is not one. */
    public static Mtu ofBytes(int bytes) {
        for (Mtu m : values()) {
            if (m.bytes == bytes) {
                return m;
            }
        }
        throw new IllegalArgumentException("path MTU must be 256, 512, 1024, 2048 or 4096 bytes, not " + bytes);
    }

    /**
     * The active MTU rxe derives from its network interface's MTU: the interface MTU less 80
     * bytes of headroom, rounded down to an IB MTU (1500 gives 1024, 4200 gives 4096).
     */
    public static Mtu fromInterfaceMtu(int interfaceMtu) {
        int room = interfaceMtu - RXE_HEADROOM;
        if (room < 256) {
            throw new IllegalArgumentException("an interface MTU of " + interfaceMtu + " leaves " + room
                    + " bytes after rxe's 80 bytes of headroom: at least 336 is needed for a 256-byte path MTU");
        }
        Mtu best = MTU_256;
        for (Mtu m : values()) {
            if (m.bytes <= room) {
                best = m;
            }
        }
        return best;
    }
}
