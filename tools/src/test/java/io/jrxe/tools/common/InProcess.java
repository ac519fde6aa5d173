package io.jrxe.tools.common;

import io.jrxe.tools.JrxeMain;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

/**
 * `jrxe ...` run in the test's JVM, its exit status and what it printed: {@code err} without the host's notices
 * ({@link HostNotices}), {@code rawErr} all of it.
 */
public record InProcess(int status, String out, String err, String rawErr) {
    public static InProcess run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = JrxeMain.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new InProcess(status, out.toString(), HostNotices.without(err.toString()), err.toString());
    }

    public List<String> lines() {
        return out.lines().toList();
    }

    @Override
    public String toString() {
        return "status " + status + "\nstdout:\n" + out + "\nstderr:\n" + rawErr;
    }
}
