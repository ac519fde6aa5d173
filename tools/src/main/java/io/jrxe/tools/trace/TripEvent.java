package io.jrxe.tools.trace;

import io.jrxe.wire.dissect.DissectedPacket;

import java.util.Map;

/**
 * One step of a work request's trip: when (virtual time), on which NIC, what kind, the sentence that tells it and
 * the same values as fields for --json. {@code packet} is the packet's dissection, for a packet (else null).
 */
record TripEvent(long timeNanos, String nic, Stage stage, String text, Map<String, Object> fields, DissectedPacket packet) {
}
