package io.jrxe.rnic.cc;

/** The plain numbers of a congestion control's settings as people write them: a count, or a gain such as 1/256. */
final class SettingNumbers {
    private SettingNumbers() {
    }

    /** A whole number from 0 up. */
    static int count(String text) {
        try {
            int n = Integer.parseInt(text.strip());
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException("'" + text + "' is not a count: write a whole number from 0 up");
    }

    /** A number written as a decimal (0.875) or a fraction of two whole numbers (1/256). */
    static double fraction(String text) {
        String t = text.strip();
        try {
            int slash = t.indexOf('/');
            double value = slash < 0 ? Double.parseDouble(t)
                    : (double) Long.parseLong(t.substring(0, slash).strip()) / Long.parseLong(t.substring(slash + 1).strip());
            if (Double.isFinite(value)) {
                return value;
            }
        } catch (NumberFormatException | ArithmeticException e) {
            // said below
        }
        throw new IllegalArgumentException("'" + text + "' is not a number: write a decimal (0.875) or a fraction "
                + "(1/256)");
    }
}
