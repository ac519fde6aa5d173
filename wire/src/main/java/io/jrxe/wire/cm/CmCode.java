package io.jrxe.wire.cm;

/**
 * A code a CM message carries in a field of its own (REJ reason, APR status, SIDR_REP status),
 * with IBTA's meaning in words. The enums of such codes share their lookups here.
 */
public interface CmCode {
    int code();

    String description();

    /** The constant with this code, or null when the spec assigns none. */
    static <E extends Enum<E> & CmCode> E of(Class<E> type, int code) {
        for (E e : type.getEnumConstants()) {
            if (e.code() == code) {
                return e;
            }
        }
        return null;
    }

    /** The code's meaning, or "{@code what} N (unassigned)". */
    static <E extends Enum<E> & CmCode> String describe(Class<E> type, int code, String what) {
        E e = of(type, code);
        return e != null ? e.description() : what + " " + code + " (unassigned)";
    }
}
