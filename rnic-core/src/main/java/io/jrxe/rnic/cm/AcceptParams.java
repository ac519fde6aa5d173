package io.jrxe.rnic.cm;

/**
 * What the passive side answers a REQ with in its REP: its QP (RC, in RESET or INIT), the
 * resources it grants, the RNR retry count the active side's QP should use, and private data.
 */
public final class AcceptParams {
    final int qpn;
    byte[] privateData = new byte[0];
    int responderResources = 1;
    int initiatorDepth = 1;
    int rnrRetryCount = 7;

    public AcceptParams(int qpn) {
        this.qpn = qpn;
    }

    /** Up to 196 bytes for the active side's consumer. */
    public AcceptParams privateData(byte[] v) { privateData = v.clone(); return this; }
    public AcceptParams responderResources(int v) { responderResources = ConnectParams.check(v, 0, 255, "responder resources"); return this; }
    public AcceptParams initiatorDepth(int v) { initiatorDepth = ConnectParams.check(v, 0, 255, "initiator depth"); return this; }
    public AcceptParams rnrRetryCount(int v) { rnrRetryCount = ConnectParams.check(v, 0, 7, "RNR retry count"); return this; }
}
