package io.jrxe.it.interop;

import java.io.PrintStream;

/** The smoke program's steps: each one printed OK or FAIL with what it saw, then a count. */
final class SmokeReport {
    private final PrintStream out;
    private int ok;
    private int failed;

    SmokeReport(PrintStream out) {
        this.out = out;
    }

    @FunctionalInterface
    interface Step<T> {
        T run() throws Exception;
    }

    /** Runs a step; its result (printed after OK when it is a String) or null when it failed. */
    <T> T step(String name, Step<T> step) {
        try {
            T value = step.run();
            out.println("OK   " + name + (value instanceof String s && !s.isEmpty() ? ": " + s : ""));
            ok++;
            return value;
        } catch (Exception | AssertionError e) {
            out.println("FAIL " + name + ": " + e.getMessage());
            failed++;
            return null;
        }
    }

    /** A check inside a step: fails the step with {@code what} when {@code condition} is false. */
    static void expect(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }

    int failed() {
        return failed;
    }

    /** "steps: 41 ok, 0 failed". */
    void summary() {
        out.println("steps: " + ok + " ok, " + failed + " failed");
    }
}
