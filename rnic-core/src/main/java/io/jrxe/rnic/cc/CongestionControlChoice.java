package io.jrxe.rnic.cc;

/**
 * The congestion controls a NIC can be given by name ({@code none}, {@code dcqcn}, {@code timely}), with their
 * default settings: what a command-line flag or a configuration key turns into a
 * {@link CongestionControl.Factory} for {@code NicContext.congestionControl}.
 */
public final class CongestionControlChoice {
    /** The names, in the order the docs list them. */
    public static final String NAMES = "none, dcqcn, timely";

    private CongestionControlChoice() {
    }

    /** The factory of the part with this name, or an explanation of what names there are. */
    public static CongestionControl.Factory named(String name) {
        return switch (name) {
            case "none" -> DeviceWindow.of(DeviceWindow.DEFAULT_PACKETS);
            case "dcqcn" -> Dcqcn.of(DcqcnParameters.DEFAULTS);
            case "timely" -> Timely.of(TimelyParameters.DEFAULTS);
            default -> throw new IllegalArgumentException(
                    "no congestion control named '" + name + "': there are " + NAMES);
        };
    }
}
