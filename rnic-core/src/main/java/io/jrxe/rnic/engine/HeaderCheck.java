package io.jrxe.rnic.engine;

import io.jrxe.rnic.qp.QueuePair;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.wire.header.DethFlyweight;
import io.jrxe.wire.opcode.ExtensionHeader;
import io.jrxe.wire.opcode.Transport;
import io.jrxe.wire.port.DropReason;

/**
 * What a packet for a QP must pass before the QP sees it, as rxe's hdr_check: its transport, P_Key,
 * the QP's state, for RC and UC the peer's address, for UD the Q_Key.
 */
final class HeaderCheck {
    private final DethFlyweight deth = new DethFlyweight();

    /** Null when the packet passes, else why not. */
    DropReason check(QpEngine e, RxPacket p) {
        QueuePair qp = e.qp;
        if (!transportMatches(p.opcode.transport(), qp.type())) {
            return DropReason.WRONG_TRANSPORT;
        }
        if ((p.pkey & 0x7FFF) != 0x7FFF) {
            return DropReason.BAD_PKEY;
        }
        QpState state = qp.state();
        if (state == QpState.RESET || state == QpState.INIT || state == QpState.ERR
                || (p.opcode.isResponse() && state == QpState.RTR)) {
            return DropReason.QP_STATE;
        }
        if (qp.type() != QpType.UD && !(e.peer != null && e.peer.sameIp(p.info.source) && e.local.sameIp(p.info.destination))) {
            // As rxe's check_addr: only the peer speaks for a connection. Without it, a third host that
            // guessed a PSN could write registered memory or acknowledge what the peer never received.
            return DropReason.WRONG_ADDRESS;
        }
        if (qp.type() == QpType.UD && deth.wrap(p.buffer, p.at(ExtensionHeader.DETH)).qkey() != qp.qkey()) {
            return DropReason.BAD_QKEY;
        }
        return null;
    }

    private static boolean transportMatches(Transport t, QpType type) {
        return switch (type) {
            case RC -> t == Transport.RC;
            case UC -> t == Transport.UC;
            case UD -> t == Transport.UD;
        };
    }
}
