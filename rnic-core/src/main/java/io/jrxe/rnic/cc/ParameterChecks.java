package io.jrxe.rnic.cc;

/**
 * The range checks of a congestion control's settings, refused in one line that names the algorithm and the setting
 * ({@code DCQCN: a gain g of 0.0: it must be above 0 and below 1}).
 */
final class ParameterChecks {
    private final String algorithm;

    ParameterChecks(String algorithm) {
        this.algorithm = algorithm;
    }

    void require(boolean ok, String why) {
        if (!ok) {
            throw new IllegalArgumentException(algorithm + ": " + why);
        }
    }

    void positive(long value, String setting, String unit) {
        require(value > 0, setting + " of " + value + " " + unit + ": it must be positive");
    }
}
