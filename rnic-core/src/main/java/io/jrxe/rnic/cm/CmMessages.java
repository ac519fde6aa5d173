package io.jrxe.rnic.cm;

import io.jrxe.wire.cm.CmAttribute;
import io.jrxe.wire.cm.MadHeaderFlyweight;
import io.jrxe.wire.port.PeerAddress;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Writes the CM's messages, whole 256-byte MADs, into a connection's {@code lastSent} (so that a
 * retry or the answer to a duplicate sends the very same bytes) or a scratch buffer. Field values
 * follow what Linux's CM sends (testdata/rxe-cm): LIDs 0xFFFF, hop limit 64, P_Key 0xFFFF.
 */
final class CmMessages extends CmFlyweights {
    static final int MESSAGE_REQ = 0;
    static final int MESSAGE_REP = 1;
    static final int LID_ROCE = 0xFFFF;

    private final long caGuid;
    private final byte[] localGid;

    CmMessages(long caGuid, PeerAddress local) {
        this.caGuid = caGuid;
        this.localGid = local.gid();
    }

    private ByteBuffer start(byte[] mad, CmAttribute attribute, long tid) {
        Arrays.fill(mad, (byte) 0);
        ByteBuffer b = ByteBuffer.wrap(mad);
        header.wrap(b, 0).setCm(attribute, tid);
        return b;
    }

    void req(CmConnection c, int transportType, byte[] privateData) {
        ByteBuffer b = start(c.lastSent, CmAttribute.REQ, c.transactionId);
        req.wrap(b, MadHeaderFlyweight.LENGTH).localCommId(c.localCommId).serviceId(c.serviceId).localCaGuid(caGuid)
                .localQpn(c.qpn).responderResources(c.responderResources).initiatorDepth(c.initiatorDepth)
                .remoteCmResponseTimeout(c.peerResponseTimeout).transportServiceType(transportType)
                .startingPsn(c.localStartingPsn).localCmResponseTimeout(c.peerResponseTimeout)
                .retryCount(c.retryCount).partitionKey(0xFFFF).pathMtu(c.pathMtu).rnrRetryCount(c.rnrRetryCount)
                .maxCmRetries(c.maxCmRetries).primaryLocalLid(LID_ROCE).primaryRemoteLid(LID_ROCE)
                .putPrimaryLocalGid(localGid, 0, 16).putPrimaryRemoteGid(c.peer.gid(), 0, 16)
                .primaryFlowLabel(c.flowLabel).primaryHopLimit(64).primarySubnetLocal(false)
                .primaryLocalAckTimeout(c.localAckTimeout)
                .putPrivateData(privateData, 0, privateData.length);
        c.hasLastSent = true;
    }

    void rep(CmConnection c, int rnrRetryCount, byte[] privateData) {
        ByteBuffer b = start(c.lastSent, CmAttribute.REP, c.transactionId);
        rep.wrap(b, MadHeaderFlyweight.LENGTH).localCommId(c.localCommId).remoteCommId(c.remoteCommId)
                .localQpn(c.qpn).startingPsn(c.localStartingPsn).responderResources(c.responderResources)
                .initiatorDepth(c.initiatorDepth).targetAckDelay(15).rnrRetryCount(rnrRetryCount)
                .localCaGuid(caGuid).putPrivateData(privateData, 0, privateData.length);
        c.hasLastSent = true;
    }

    void rtu(CmConnection c) {
        ByteBuffer b = start(c.lastSent, CmAttribute.RTU, c.transactionId);
        rtu.wrap(b, MadHeaderFlyweight.LENGTH).localCommId(c.localCommId).remoteCommId(c.remoteCommId);
        c.hasLastSent = true;
    }

    void mra(CmConnection c, int messageMraed, int serviceTimeout) {
        ByteBuffer b = start(c.lastSent, CmAttribute.MRA, c.transactionId);
        mra.wrap(b, MadHeaderFlyweight.LENGTH).localCommId(c.localCommId).remoteCommId(c.remoteCommId)
                .messageMraed(messageMraed).serviceTimeout(serviceTimeout);
        c.hasLastSent = true;
    }

    void rej(byte[] mad, long tid, int localCommId, int remoteCommId, int messageRejected, int reason, byte[] privateData) {
        ByteBuffer b = start(mad, CmAttribute.REJ, tid);
        rej.wrap(b, MadHeaderFlyweight.LENGTH).localCommId(localCommId).remoteCommId(remoteCommId)
                .messageRejected(messageRejected).reason(reason).putPrivateData(privateData, 0, privateData.length);
    }

    void dreq(CmConnection c, byte[] privateData) {
        ByteBuffer b = start(c.lastSent, CmAttribute.DREQ, c.transactionId);
        dreq.wrap(b, MadHeaderFlyweight.LENGTH).localCommId(c.localCommId).remoteCommId(c.remoteCommId)
                .remoteQpn(c.remoteQpn).putPrivateData(privateData, 0, privateData.length);
        c.hasLastSent = true;
    }

    void drep(byte[] mad, long tid, int localCommId, int remoteCommId) {
        ByteBuffer b = start(mad, CmAttribute.DREP, tid);
        drep.wrap(b, MadHeaderFlyweight.LENGTH).localCommId(localCommId).remoteCommId(remoteCommId);
    }

    void sidrReq(CmConnection c, byte[] privateData) {
        ByteBuffer b = start(c.lastSent, CmAttribute.SIDR_REQ, c.transactionId);
        sidrReq.wrap(b, MadHeaderFlyweight.LENGTH).requestId(c.localCommId).partitionKey(0xFFFF)
                .serviceId(c.serviceId).putPrivateData(privateData, 0, privateData.length);
        c.hasLastSent = true;
    }

    void sidrRep(byte[] mad, long tid, int requestId, int status, int qpn, long serviceId, int qkey, byte[] privateData) {
        ByteBuffer b = start(mad, CmAttribute.SIDR_REP, tid);
        sidrRep.wrap(b, MadHeaderFlyweight.LENGTH).requestId(requestId).status(status).qpn(qpn).serviceId(serviceId)
                .qkey(qkey).putPrivateData(privateData, 0, privateData.length);
    }
}
