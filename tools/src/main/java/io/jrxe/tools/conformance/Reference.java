package io.jrxe.tools.conformance;

/**
 * Whose word a case's expectation is: the IBTA specification (rxe behaves alike), or rxe's where the specification
 * leaves the answer open or rxe departs from it (the case's note says how).
 */
public enum Reference {
    IBTA("IBTA"),
    RXE("rxe");

    private final String label;

    Reference(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
