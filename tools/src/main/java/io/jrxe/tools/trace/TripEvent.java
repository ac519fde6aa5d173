package io.jrxe.tools.trace;

import java.util.Map;

/**
 * One step of a work request's trip: when (virtual time), on which NIC, what kind, the sentence that tells it and
 * the same values as fields for --json. {@code packetJson} is the packet's dissection as JSON text, for a packet.
 */
record TripEvent(long timeNanos, String nic, Stage stage, String text, Map<String, Object> fields, String packetJson) {
}
