package io.jrxe.wire.pma;

import io.jrxe.wire.cm.CmField;
import io.jrxe.wire.cm.CmField.Kind;
import io.jrxe.wire.header.Flyweight;

import java.util.List;

/**
 * ClassPortInfo (IBTA 13.4.8.1), 72 bytes: what a class's agent supports (its capability mask) and
 * where to send redirected requests and traps. Wrap it at the MAD's offset + {@link PerfMgmt#DATA_OFFSET}.
 */
public final class ClassPortInfoFlyweight extends Flyweight<ClassPortInfoFlyweight> {
    public static final int LENGTH = 72;

    public static final CmField BASE_VERSION = CmField.number(Kind.NUMBER, "base_version", "BaseVersion", 0, 0, 8);
    public static final CmField CLASS_VERSION = CmField.number(Kind.NUMBER, "class_version", "ClassVersion", 1, 0, 8);
    public static final CmField CAPABILITY_MASK = CmField.number(Kind.HEX, "capability_mask", "CapabilityMask", 2, 0, 16);
    public static final CmField CAPABILITY_MASK2 = CmField.number(Kind.HEX, "capability_mask2", "CapabilityMask2", 4, 0, 27);
    public static final CmField RESP_TIME_VALUE = CmField.number(Kind.NUMBER, "resp_time_value", "RespTimeValue", 7, 3, 5);
    public static final CmField REDIRECT_GID = CmField.bytes(Kind.GID, "redirect_gid", "RedirectGID", 8, 16);
    public static final CmField REDIRECT_TC = CmField.number(Kind.HEX, "redirect_tc", "RedirectTC", 24, 0, 8);
    public static final CmField REDIRECT_SL = CmField.number(Kind.NUMBER, "redirect_sl", "RedirectSL", 25, 0, 4);
    public static final CmField REDIRECT_FL = CmField.number(Kind.HEX, "redirect_fl", "RedirectFL", 25, 4, 20);
    public static final CmField REDIRECT_LID = CmField.number(Kind.HEX, "redirect_lid", "RedirectLID", 28, 0, 16);
    public static final CmField REDIRECT_PKEY = CmField.number(Kind.HEX, "redirect_pkey", "RedirectP_Key", 30, 0, 16);
    public static final CmField RESERVED_32 = CmField.reserved(32, 0, 8);
    public static final CmField REDIRECT_QP = CmField.number(Kind.HEX, "redirect_qp", "RedirectQP", 33, 0, 24);
    public static final CmField REDIRECT_QKEY = CmField.number(Kind.HEX, "redirect_qkey", "RedirectQ_Key", 36, 0, 32);
    public static final CmField TRAP_GID = CmField.bytes(Kind.GID, "trap_gid", "TrapGID", 40, 16);
    public static final CmField TRAP_TC = CmField.number(Kind.HEX, "trap_tc", "TrapTC", 56, 0, 8);
    public static final CmField TRAP_SL = CmField.number(Kind.NUMBER, "trap_sl", "TrapSL", 57, 0, 4);
    public static final CmField TRAP_FL = CmField.number(Kind.HEX, "trap_fl", "TrapFL", 57, 4, 20);
    public static final CmField TRAP_LID = CmField.number(Kind.HEX, "trap_lid", "TrapLID", 60, 0, 16);
    public static final CmField TRAP_PKEY = CmField.number(Kind.HEX, "trap_pkey", "TrapP_Key", 62, 0, 16);
    public static final CmField TRAP_HOP_LIMIT = CmField.number(Kind.NUMBER, "trap_hl", "TrapHL", 64, 0, 8);
    public static final CmField TRAP_QP = CmField.number(Kind.HEX, "trap_qp", "TrapQP", 65, 0, 24);
    public static final CmField TRAP_QKEY = CmField.number(Kind.HEX, "trap_qkey", "TrapQ_Key", 68, 0, 32);

    /** Every field in wire order; together they cover the attribute's 72 bytes. */
    public static final List<CmField> FIELDS = List.of(BASE_VERSION, CLASS_VERSION, CAPABILITY_MASK, CAPABILITY_MASK2,
            RESP_TIME_VALUE, REDIRECT_GID, REDIRECT_TC, REDIRECT_SL, REDIRECT_FL, REDIRECT_LID, REDIRECT_PKEY,
            RESERVED_32, REDIRECT_QP, REDIRECT_QKEY, TRAP_GID, TRAP_TC, TRAP_SL, TRAP_FL, TRAP_LID, TRAP_PKEY,
            TRAP_HOP_LIMIT, TRAP_QP, TRAP_QKEY);

    @Override
    public int length() {
        return LENGTH;
    }

    public int baseVersion() {
        return (int) BASE_VERSION.get(buffer, offset);
    }

    public int classVersion() {
        return (int) CLASS_VERSION.get(buffer, offset);
    }

    public int capabilityMask() {
        return (int) CAPABILITY_MASK.get(buffer, offset);
    }

    public int respTimeValue() {
        return (int) RESP_TIME_VALUE.get(buffer, offset);
    }

    /**
     * Writes a PerfMgmt agent's ClassPortInfo: versions, capability mask and response time; no
     * redirection and no trap destination (every other byte zero).
     */
    public ClassPortInfoFlyweight set(int baseVersion, int classVersion, int capabilityMask, int respTimeValue) {
        for (int i = 0; i < LENGTH; i += 8) {
            i64(i, 0);
        }
        BASE_VERSION.set(buffer, offset, baseVersion);
        CLASS_VERSION.set(buffer, offset, classVersion);
        CAPABILITY_MASK.set(buffer, offset, capabilityMask);
        RESP_TIME_VALUE.set(buffer, offset, respTimeValue);
        return this;
    }
}
