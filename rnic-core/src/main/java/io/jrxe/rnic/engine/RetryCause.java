package io.jrxe.rnic.engine;

/** Why the requester goes back and sends again: what a retransmitted packet's capture comment says. */
enum RetryCause {
    SEQUENCE_NAK("after NAK sequence error"),
    IMPLIED_NAK("after a response beyond a missing one (implied NAK)"),
    ACK_TIMEOUT("after ACK timeout"),
    RNR_NAK("after RNR NAK");

    final String text;

    RetryCause(String text) {
        this.text = text;
    }
}
