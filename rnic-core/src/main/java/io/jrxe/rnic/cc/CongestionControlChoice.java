package io.jrxe.rnic.cc;

/**
 * The congestion controls a NIC can be given by text: a name ({@code none}, {@code dcqcn}, {@code timely}), then
 * optionally a colon and settings, {@code key=value} separated by commas ({@code dcqcn:profile=connectx,ai=10M};
 * the keys are {@link DcqcnParameters#KEYS} and {@link TimelyParameters#KEYS}, applied in order). What a
 * command-line flag or a configuration key turns into a {@link CongestionControl.Factory} for
 * {@code NicContext.congestionControl}.
 */
public final class CongestionControlChoice {
    /** The names, in the order the docs list them. */
    public static final String NAMES = "none, dcqcn, timely";

    private CongestionControlChoice() {
    }

    /** The factory {@code text} asks for, over the default settings; a one-line explanation when it cannot be read. */
    public static CongestionControl.Factory named(String text) {
        return parse(text, DcqcnParameters.DEFAULTS, TimelyParameters.DEFAULTS);
    }

    /**
     * The factory {@code text} asks for, its settings applied over the given ones (a simulated fabric starts from its
     * link's rate); a one-line explanation when it cannot be read.
     */
    public static CongestionControl.Factory parse(String text, DcqcnParameters dcqcn, TimelyParameters timely) {
        String t = text.strip();
        int colon = t.indexOf(':');
        String name = colon < 0 ? t : t.substring(0, colon).strip();
        String list = colon < 0 ? "" : t.substring(colon + 1).strip();
        String[] settings = list.isEmpty() ? new String[0] : list.split(",", -1);
        return switch (name) {
            case "none" -> {
                if (settings.length > 0) {
                    throw new IllegalArgumentException("'" + text + "': none has no settings");
                }
                yield DeviceWindow.of(DeviceWindow.DEFAULT_PACKETS);
            }
            case "dcqcn" -> Dcqcn.of(applied(dcqcn, settings, text, DcqcnParameters::with));
            case "timely" -> Timely.of(applied(timely, settings, text, TimelyParameters::with));
            default -> throw new IllegalArgumentException(
                    "no congestion control named '" + name + "': there are " + NAMES);
        };
    }

    /** The settings' parameters: each key=value in turn over {@code base}; a bad one is explained with the text. */
    private static <P> P applied(P base, String[] settings, String text, Setting<P> with) {
        P p = base;
        for (String setting : settings) {
            try {
                p = with.apply(p, key(setting), value(setting));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("'" + text + "': " + e.getMessage());
            }
        }
        return p;
    }

    /** One algorithm's parameters with one setting changed. */
    private interface Setting<P> {
        P apply(P parameters, String key, String value);
    }

    private static String key(String setting) {
        int eq = setting.indexOf('=');
        if (eq <= 0 || eq == setting.length() - 1) {
            throw new IllegalArgumentException("'" + setting.strip() + "' is no key=value (settings follow the name "
                    + "and a colon, separated by commas: dcqcn:ai=10M,hai=50M)");
        }
        return setting.substring(0, eq).strip();
    }

    private static String value(String setting) {
        return setting.substring(setting.indexOf('=') + 1).strip();
    }
}
