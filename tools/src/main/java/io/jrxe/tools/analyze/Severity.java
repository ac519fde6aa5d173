package io.jrxe.tools.analyze;

/**
 * How much a finding matters, in Wireshark's expert-info levels: an error or a warning is abnormal (the
 * command's exit status says so), a note is worth knowing, chat is what went as it should.
 */
enum Severity {
    ERROR, WARNING, NOTE, CHAT;

    boolean abnormal() {
        return this == ERROR || this == WARNING;
    }

    String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
