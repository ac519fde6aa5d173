package io.jrxe.verbs;

/** The QP transport types jrxe implements (the values are libibverbs' enum ibv_qp_type). */
public enum QpType {
    RC(2),
    UC(3),
    UD(4);

    private final int verbsValue;

    QpType(int verbsValue) {
        this.verbsValue = verbsValue;
    }

    public int verbsValue() {
        return verbsValue;
    }
}
