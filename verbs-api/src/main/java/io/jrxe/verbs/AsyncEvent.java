package io.jrxe.verbs;

/**
 * One asynchronous event and what it is about: a QP number, a CQ or SRQ handle, or a port,
 * with a sentence that says why it happened.
 */
public record AsyncEvent(AsyncEventType type, int element, String reason) {
    @Override
    public String toString() {
        String about = switch (type) {
            case CQ_ERR -> "CQ " + element;
            case SRQ_ERR, SRQ_LIMIT_REACHED -> "SRQ " + element;
            case PORT_ACTIVE, PORT_ERR, LID_CHANGE, PKEY_CHANGE, SM_CHANGE, CLIENT_REREGISTER, GID_CHANGE -> "port " + element;
            case DEVICE_FATAL -> "device";
            default -> String.format("QP 0x%06x", element);
        };
        return type + " on " + about + (reason == null ? "" : ": " + reason);
    }
}
