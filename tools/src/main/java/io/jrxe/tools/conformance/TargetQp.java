package io.jrxe.tools.conformance;

import io.jrxe.tools.rcops.RcOpsDest;
import io.jrxe.wire.port.PeerAddress;

/**
 * One case's target QP: what the exchange told (QPN, send PSN, GID, buffer, keys, MTU), the target's UD QP (-1
 * without one), and its inside when it is in this process (else null). Closing releases the QP.
 */
record TargetQp(RcOpsDest dest, TargetKeys keys, int udQpn, TargetInspector inspector, AutoCloseable release)
        implements AutoCloseable {
    PeerAddress address() {
        return PeerAddress.ofGid(dest.gid());
    }

    CaseContext context(int testerQpn, int startPsn) {
        return new CaseContext(testerQpn, startPsn, dest.qpn(), dest.psn(), dest.addr(), dest.rkey(), keys, udQpn,
                dest.mtu());
    }

    @Override
    public void close() {
        try {
            release.close();
        } catch (Exception e) {
            // the next case gets a QP of its own anyway
        }
    }
}
