package io.jrxe.tools.view;

/**
 * One end of a connection: an IP address and a QP number, or -1 for the number when the capture
 * never shows it (RC and UC packets carry only the destination QP, so a source's own number is
 * learnt from the packets sent to it).
 */
record Endpoint(String ip, int qpn) {
    static final int UNKNOWN = -1;

    String qpLabel() {
        return qpn == UNKNOWN ? "QP ?" : String.format("QP 0x%06x", qpn);
    }

    String label() {
        return ip + " " + qpLabel();
    }
}
