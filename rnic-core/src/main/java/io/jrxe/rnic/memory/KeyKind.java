package io.jrxe.rnic.memory;

/** What a memory key (an L_Key or R_Key) names in the MPT: a memory region, or a memory window of type 1 or 2. */
public enum KeyKind {
    /** A memory region (ibv_mr). */
    MR,
    /** A type 1 memory window, bound by ibv_bind_mw. */
    MW_TYPE_1,
    /** A type 2 memory window, bound by a BIND_MW work request. */
    MW_TYPE_2
}
