package io.jrxe.tools.conformance;

/** Which R_Key a crafted RETH or AtomicETH carries (the target's keys are learnt per case). */
public enum KeyChoice {
    /** The main region's, with every remote right. */
    MAIN,
    READ_ONLY,
    WRITE_ONLY,
    /** A region registered without remote rights. */
    NO_REMOTE,
    /** A region of another protection domain than the target QP's. */
    OTHER_PD,
    /** A region deregistered before the case: the key is invalid. */
    DEAD,
    /** The target's bound memory window. */
    WINDOW,
    /** A key no region has: its index and key byte are both unlikely. */
    BOGUS;

    static final int BOGUS_KEY = 0x00FF_FE42;

    int resolve(CaseContext c) {
        TargetKeys k = c.keys();
        return switch (this) {
            case MAIN -> c.mainRkey();
            case READ_ONLY -> k.readOnly();
            case WRITE_ONLY -> k.writeOnly();
            case NO_REMOTE -> k.noRemote();
            case OTHER_PD -> k.otherPd();
            case DEAD -> k.dead();
            case WINDOW -> k.window();
            case BOGUS -> BOGUS_KEY;
        };
    }
}
