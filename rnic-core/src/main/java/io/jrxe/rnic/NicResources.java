package io.jrxe.rnic;

import io.jrxe.rnic.device.Counter;
import io.jrxe.rnic.device.Counters;
import io.jrxe.verbs.DeviceAttributes;
import io.jrxe.verbs.OdpCapabilities;
import io.jrxe.rnic.device.Port;
import io.jrxe.verbs.AsyncEvent;
import io.jrxe.rnic.event.AsyncEventQueue;
import io.jrxe.verbs.AsyncEventType;
import io.jrxe.rnic.memory.MemoryTables;
import io.jrxe.rnic.memory.OnDemandPaging;
import io.jrxe.rnic.memory.PageFaultHook;
import io.jrxe.rnic.memory.ProtectionDomain;
import io.jrxe.rnic.mcast.MulticastGroups;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.rnic.qp.QueuePair;
import io.jrxe.rnic.queue.CompletionChannel;
import io.jrxe.rnic.queue.CompletionQueue;
import io.jrxe.rnic.queue.SharedReceiveQueue;
import io.jrxe.wire.framing.RoceFramer;
import io.jrxe.wire.time.NicTime;

import java.util.HashMap;
import java.util.Map;

/**
 * The resources of one {@link Nic} (rxe's pools): its attributes and port, the tables a real NIC
 * keeps (PDs, CQs, SRQs, QPs, AHs, and the MPT/MTT in {@link MemoryTables}), the device's counters
 * and the async event queue. Creation checks every limit and destruction every use, with errors
 * that say which. QPs are created and destroyed through the {@link Nic}, which attaches and
 * detaches their engines. All state is owned by the NIC thread; callers go through
 * {@link #executor()}.
 */
public final class NicResources {
    /** rxe's first QPN for user QPs (QP0 and QP1 are reserved; kernel rxe starts at 17). */
    public static final int FIRST_QPN = 0x11;

    private final DeviceConfig config;
    private final DeviceAttributes attributes;
    private final Port port;
    private final long nodeGuid;
    private final MemoryTables memory;
    private final Counters counters = new Counters();
    private final AsyncEventQueue events = new AsyncEventQueue();
    private final NicExecutor executor;
    private final MulticastGroups multicast;

    private final Map<Integer, ProtectionDomain> pds = new HashMap<>();
    private final Map<Integer, CompletionQueue> cqs = new HashMap<>();
    private final Map<Integer, SharedReceiveQueue> srqs = new HashMap<>();
    private final Map<Integer, QueuePair> qps = new HashMap<>();
    private final Map<Integer, AddressHandle> ahs = new HashMap<>();
    private int nextHandle = 1;
    private int nextQpn;

    NicResources(DeviceConfig config, NicExecutor executor, PageFaultHook pageFaults, boolean nicRunsElsewhere,
                 NicTime clock) {
        this.config = config;
        // On-demand paging needs both its settings on and caps that have it; a device without it says so in its caps.
        boolean odpOn = config.odp().enabled() && config.attributes().odpCapabilities().supported();
        this.attributes = config.attributes().toBuilder().odpCapabilities(odpOn
                ? withImplicit(config.attributes().odpCapabilities(), config.odp().implicit())
                : OdpCapabilities.NONE).build();
        this.port = new Port(config.interfaceMtu(), config.addresses());
        this.nodeGuid = guidOf(RoceFramer.macFor(config.addresses().getFirst().getAddress()));
        OnDemandPaging odp = odpOn ? new OnDemandPaging(config.odp(), counters, pageFaults, clock) : null;
        this.memory = new MemoryTables(attributes, config.mttEntries(), pageFaults, nicRunsElsewhere, config.firstKeyIndex(),
                odp);
        this.nextQpn = config.firstQpn();
        this.executor = executor;
        this.multicast = new MulticastGroups(config.name(), attributes,
                config.addresses().getFirst() instanceof java.net.Inet6Address);
        // The link is up from the start, as rxe reports once its netdev is up.
        events.post(new AsyncEvent(AsyncEventType.PORT_ACTIVE, Port.NUMBER, "link up on " + config.name()));
    }

    /** The caps with ODP_SUPPORT_IMPLICIT as the settings say: set with implicit ODP on, cleared without. */
    private static OdpCapabilities withImplicit(OdpCapabilities caps, boolean implicit) {
        long general = caps.general() & ~OdpCapabilities.SUPPORT_IMPLICIT;
        return new OdpCapabilities(implicit ? general | OdpCapabilities.SUPPORT_IMPLICIT : general, caps.rc(), caps.uc(),
                caps.ud());
    }

    /** An EUI-64 from the MAC (ff:fe inserted, universal/local bit flipped), as rxe derives its node GUID. */
    static long guidOf(long mac) {
        long oui = (mac >>> 24) & 0xFFFFFF;
        long nic = mac & 0xFFFFFF;
        return ((oui ^ 0x020000L) << 40) | 0xFFFEL << 24 | nic;
    }

    public String name() { return config.name(); }
    public DeviceConfig config() { return config; }
    public DeviceAttributes attributes() { return attributes; }
    public Port port() { return port; }
    public long nodeGuid() { return nodeGuid; }
    public MemoryTables memory() { return memory; }
    public Counters counters() { return counters; }
    public AsyncEventQueue events() { return events; }
    public NicExecutor executor() { return executor; }
    /** The multicast groups the device's QPs are attached to (ibv_attach_mcast). */
    public MulticastGroups multicast() { return multicast; }

    public ProtectionDomain allocatePd() throws RnicException {
        limit(pds.size(), attributes.maxPd(), "PD", "max_pd");
        ProtectionDomain pd = new ProtectionDomain(nextHandle++);
        pds.put(pd.handle(), pd);
        return pd;
    }

    public void deallocatePd(ProtectionDomain pd) throws RnicException {
        owned(pds, pd.handle(), pd);
        pd.holders().checkUnused(pd.toString());
        pds.remove(pd.handle());
    }

    public CompletionChannel createCompletionChannel() {
        return new CompletionChannel(nextHandle++);
    }

    public CompletionQueue createCq(int entries, CompletionChannel channel) throws RnicException {
        limit(cqs.size(), attributes.maxCq(), "CQ", "max_cq");
        checkCqSize(entries);
        CompletionQueue cq = new CompletionQueue(nextHandle++, entries, channel);
        cqs.put(cq.handle(), cq);
        return cq;
    }

    public void resizeCq(CompletionQueue cq, int entries) throws RnicException {
        owned(cqs, cq.handle(), cq);
        checkCqSize(entries);
        if (!cq.resize(entries)) {
            throw RnicException.invalid(String.format("resize %s to %d entries: %d completions are waiting to be polled",
                    cq, entries, cq.depth()));
        }
    }

    private void checkCqSize(int entries) throws RnicException {
        if (entries < 1 || entries > attributes.maxCqe()) {
            throw RnicException.invalid("a CQ holds 1.." + attributes.maxCqe() + " entries (max_cqe), not " + entries);
        }
    }

    public void destroyCq(CompletionQueue cq) throws RnicException {
        owned(cqs, cq.handle(), cq);
        cq.holders().checkUnused(cq.toString());
        cqs.remove(cq.handle());
    }

    public SharedReceiveQueue createSrq(ProtectionDomain pd, int maxWr, int maxSge) throws RnicException {
        owned(pds, pd.handle(), pd);
        limit(srqs.size(), attributes.maxSrq(), "SRQ", "max_srq");
        if (maxWr < 1 || maxWr > attributes.maxSrqWr()) {
            throw RnicException.invalid("an SRQ holds 1.." + attributes.maxSrqWr() + " WRs (max_srq_wr), not " + maxWr);
        }
        if (maxSge < 1 || maxSge > attributes.maxSrqSge()) {
            throw RnicException.invalid("an SRQ WR has 1.." + attributes.maxSrqSge() + " SGEs (max_srq_sge), not " + maxSge);
        }
        SharedReceiveQueue srq = new SharedReceiveQueue(nextHandle++, pd, maxWr, maxSge);
        srqs.put(srq.handle(), srq);
        pd.holders().add(srq);
        return srq;
    }

    public void destroySrq(SharedReceiveQueue srq) throws RnicException {
        owned(srqs, srq.handle(), srq);
        srq.holders().checkUnused(srq.toString());
        srqs.remove(srq.handle());
        srq.pd().holders().remove(srq);
    }

    /** Creates a QP in RESET, its capabilities checked against the device's limits ({@link Nic#createQp}). */
    QueuePair createQp(ProtectionDomain pd, QpType type, CompletionQueue sendCq, CompletionQueue recvCq,
                              SharedReceiveQueue srq, QpCapabilities caps, boolean sqSigAll) throws RnicException {
        owned(pds, pd.handle(), pd);
        owned(cqs, sendCq.handle(), sendCq);
        owned(cqs, recvCq.handle(), recvCq);
        if (srq != null) {
            owned(srqs, srq.handle(), srq);
        }
        limit(qps.size(), attributes.maxQp(), "QP", "max_qp");
        checkCap(caps.maxSendWr(), 1, attributes.maxQpWr(), "max_send_wr", "max_qp_wr");
        checkCap(caps.maxSendSge(), 0, attributes.maxSge(), "max_send_sge", "max_sge");
        checkCap(caps.maxInlineData(), 0, attributes.maxInlineData(), "max_inline_data", "max_inline_data");
        if (srq == null) {
            checkCap(caps.maxRecvWr(), 1, attributes.maxQpWr(), "max_recv_wr", "max_qp_wr");
            checkCap(caps.maxRecvSge(), 0, attributes.maxSge(), "max_recv_sge", "max_sge");
        }
        int qpn = takeQpn();
        QueuePair qp = new QueuePair(qpn, type, pd, sendCq, recvCq, srq, caps, sqSigAll);
        qps.put(qpn, qp);
        pd.holders().add(qp);
        sendCq.holders().add(qp);
        recvCq.holders().add(qp);
        if (srq != null) {
            srq.holders().add(qp);
        }
        return qp;
    }

    /** Forgets a QP ({@link Nic#destroyQp}). */
    void destroyQp(QueuePair qp) throws RnicException {
        owned(qps, qp.qpn(), qp);
        int attached = multicast.pairsOf(qp);
        if (attached > 0) {
            // As uverbs: a QP is destroyed only after its multicast attachments are undone.
            throw RnicException.busy(String.format("destroy QP 0x%06x: it is attached to multicast groups %d time(s); "
                    + "detach it first (ibv_detach_mcast)", qp.qpn(), attached));
        }
        qp.forceState(QpState.RESET);
        qps.remove(qp.qpn());
        qp.pd().holders().remove(qp);
        qp.sendCq().holders().remove(qp);
        qp.recvCq().holders().remove(qp);
        if (qp.srq() != null) {
            qp.srq().holders().remove(qp);
        }
    }

    /** The QP with this number, or null (the receive path's dispatch). */
    public QueuePair qp(int qpn) {
        return qps.get(qpn);
    }

    public int qpCount() {
        return qps.size();
    }

    public AddressHandle createAh(ProtectionDomain pd, AddressVector av) throws RnicException {
        owned(pds, pd.handle(), pd);
        limit(ahs.size(), attributes.maxAh(), "AH", "max_ah");
        if (av.sgidIndex() >= port.gids().size()) {
            throw RnicException.invalid("AH source GID index " + av.sgidIndex() + " is out of range 0.."
                    + (port.gids().size() - 1));
        }
        AddressHandle ah = new AddressHandle(nextHandle++, pd, av);
        ahs.put(ah.handle(), ah);
        pd.holders().add(ah);
        return ah;
    }

    public void destroyAh(AddressHandle ah) throws RnicException {
        owned(ahs, ah.handle(), ah);
        ahs.remove(ah.handle());
        ah.pd().holders().remove(ah);
    }

    public AddressHandle ah(int handle) {
        return ahs.get(handle);
    }

    /**
     * A CQ that overflowed: the CQ error event, and every QP that completes into it goes to
     * the error state with QP_FATAL, as real devices do; {@code inError} is handed each of
     * those QPs (the data path flushes them).
     */
    public void cqOverflowed(CompletionQueue cq, java.util.function.Consumer<QueuePair> inError) {
        counters.increment(Counter.CQ_OVERFLOW);
        events.post(new AsyncEvent(AsyncEventType.CQ_ERR, cq.handle(), "completion queue overflow: "
                + cq.capacity() + " entries were not polled in time"));
        for (QueuePair qp : qps.values()) {
            if (qp.sendCq() != cq && qp.recvCq() != cq) {
                continue;
            }
            if (qp.state() != QpState.ERR) {
                qp.forceState(QpState.ERR);
                events.post(new AsyncEvent(AsyncEventType.QP_FATAL, qp.qpn(), "its " + cq + " overflowed"));
            }
            inError.accept(qp);
        }
    }

    private int takeQpn() throws RnicException {
        for (int tries = 0; tries < (1 << 24); tries++) {
            int qpn = nextQpn;
            nextQpn = nextQpn >= 0xFFFFFF ? FIRST_QPN : nextQpn + 1;
            if (!qps.containsKey(qpn)) {
                return qpn;
            }
        }
        throw RnicException.exhausted("no free QP number");
    }

    private static void limit(int count, int max, String what, String attribute) throws RnicException {
        if (count >= max) {
            throw RnicException.exhausted(String.format("cannot create another %s: the device allows %s %d and all are in use",
                    what, attribute, max));
        }
    }

    private static void checkCap(int value, int min, int max, String name, String limit) throws RnicException {
        if (value < min || value > max) {
            throw RnicException.invalid(String.format("QP capability %s %d is out of range %d..%d (the device's %s)",
                    name, value, min, max, limit));
        }
    }

    private <T> void owned(Map<Integer, T> table, int handle, T object) throws RnicException {
        if (table.get(handle) != object) {
            throw RnicException.invalid(object + " does not belong to device " + config.name() + " or was destroyed");
        }
    }
}
