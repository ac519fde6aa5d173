package io.jrxe.wire.port.udp;

/** The device's address and port could not be bound; the message says why in words. */
public final class PortInUseException extends Exception {
    public PortInUseException(String message, Throwable cause) {
        super(message, cause);
    }
}
