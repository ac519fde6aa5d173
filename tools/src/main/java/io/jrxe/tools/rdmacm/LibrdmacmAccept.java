package io.jrxe.tools.rdmacm;

import io.jrxe.verbs.DeviceAttributes;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.cm.CmId;
import io.jrxe.verbs.cm.ConnectionParameters;

/**
 * What rdma_accept(id, NULL) answers a connection request with, as librdmacm fills it in: as many READs and
 * atomics towards this side as the peer will have outstanding, and as many of its own as the peer lets it have,
 * each at most what the device allows; retry and RNR retry counts 7.
 */
final class LibrdmacmAccept {
    private LibrdmacmAccept() {
    }

    /** The parameters for accepting {@code request} (the CONNECT_REQUEST's, seen from this side) on {@code id}. */
    static ConnectionParameters of(ConnectionParameters request, CmId id) throws VerbsException {
        DeviceAttributes device = id.context().queryDevice();
        int responder = request == null ? 1 : request.responderResources();
        int initiator = request == null ? 1 : request.initiatorDepth();
        return ConnectionParameters.defaults().withResources(Math.min(responder, device.maxQpRdAtom()),
                Math.min(initiator, device.maxQpInitRdAtom()));
    }
}
