package io.jrxe.tools;

import picocli.CommandLine;

/** `jrxe --version`: the jar's version and the JVM it runs on. */
public final class JrxeVersion implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String version = JrxeVersion.class.getPackage().getImplementationVersion();
        return new String[] {
            "jrxe " + (version == null ? "(development build)" : version),
            "JVM " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")",
        };
    }
}
