package io.jrxe.tools.stat;

import java.io.IOException;

/** A Java process without jrxe devices for `jrxe stat` to be pointed at: says "ready", then waits for stdin to close. */
public final class IdleJvm {
    private IdleJvm() {
    }

    public static void main(String[] args) throws IOException {
        System.out.println("ready");
        System.out.flush();
        while (System.in.read() >= 0) {
            // wait for the test to close stdin
        }
    }
}
