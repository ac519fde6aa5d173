package io.jrxe.rnic;

import io.jrxe.rnic.memory.ProtectionDomain;
import io.jrxe.rnic.qp.QueuePair;
import io.jrxe.rnic.queue.CompletionQueue;
import io.jrxe.rnic.queue.SharedReceiveQueue;
import io.jrxe.rnic.transport.ControlPathOnly;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpType;

/**
 * The tables of a NIC with no network, for tests of the control path's rules (limits, destruction,
 * the QP state machine, memory registration): no engines are attached, so a QP is created and
 * destroyed in the tables directly.
 */
public final class Nics {
    private Nics() {
    }

    /** The resources of a new NIC with no network, its commands run on {@code executor}. */
    public static NicResources resources(DeviceConfig config, NicExecutor executor) {
        return new NicContext(config).transport(ControlPathOnly.on(executor)).open().resources();
    }

    public static QueuePair createQp(NicResources resources, ProtectionDomain pd, QpType type, CompletionQueue sendCq,
                                     CompletionQueue recvCq, SharedReceiveQueue srq, QpCapabilities caps, boolean sqSigAll)
            throws RnicException {
        return resources.createQp(pd, type, sendCq, recvCq, srq, caps, sqSigAll);
    }

    public static void destroyQp(NicResources resources, QueuePair qp) throws RnicException {
        resources.destroyQp(qp);
    }
}
