package io.jrxe.wire.port.raw;

import org.junit.jupiter.api.Assumptions;

/** Skips a test, saying why, when this process may not open a raw socket (not root, no CAP_NET_RAW). */
final class RawPrivilege {
    private RawPrivilege() {
    }

    static void assumeRawSocket() {
        TransmitPath path = TransmitPath.probe(false, RawSocketOpener.system());
        if (path.kind() != TransmitPath.Kind.RAW_IPV4) {
            String reason = "a raw IPv4 socket cannot be opened here (" + path.reason() + "; run as root or with CAP_NET_RAW)";
            System.out.println("SKIPPED: " + reason);
            Assumptions.abort(reason);
        }
    }
}
