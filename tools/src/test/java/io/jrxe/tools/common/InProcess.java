package io.jrxe.tools.common;

import io.jrxe.tools.JrxeMain;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

/** `jrxe ...` run in the test's JVM, its exit status and what it printed. */
public record InProcess(int status, String out, String err) {
    public static InProcess run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = JrxeMain.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new InProcess(status, out.toString(), HostNotices.without(err.toString()));
    }

    public List<String> lines() {
        return out.lines().toList();
    }

    @Override
    public String toString() {
        return "status " + status + "\nstdout:\n" + out + "\nstderr:\n" + err;
    }
}
