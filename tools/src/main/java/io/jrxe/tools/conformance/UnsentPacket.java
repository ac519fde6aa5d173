package io.jrxe.tools.conformance;

/**
 * A crafted packet the tester's kernel refused to send (larger than the interface's MTU, say): the case fails
 * with that reason instead of reporting the target's silence for a packet it never saw.
 */
final class UnsentPacket extends RuntimeException {
    UnsentPacket(String message) {
        super(message, null, false, false);
    }
}
