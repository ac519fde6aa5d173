package io.jrxe.verbs.emulated;

import io.jrxe.rnic.cm.CmConnection;
import io.jrxe.rnic.cm.CmEventSink;
import io.jrxe.verbs.cm.CmEventType;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.cm.CmEvent;
import io.jrxe.verbs.cm.CmEventChannel;
import io.jrxe.verbs.cm.CmId;
import io.jrxe.verbs.cm.PortSpace;

import java.util.ArrayList;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * An event channel of the emulated CM. The CMs of the NICs hand it their events on their NIC
 * threads; it turns each into the API's event for the identifier it concerns at once (a
 * CONNECT_REQUEST makes that identifier) and queues it for the program's thread.
 */
final class EmulatedCmEventChannel implements CmEventChannel {
    private final EmulatedRdmaCm cm;
    private final LinkedBlockingQueue<CmEvent> events = new LinkedBlockingQueue<>();
    /** Which identifier each communication belongs to: a listener's requests get identifiers of their own. */
    private final Map<CmConnection, EmulatedCmId> byConnection = new ConcurrentHashMap<>();
    private final Set<EmulatedCmId> ids = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    EmulatedCmEventChannel(EmulatedRdmaCm cm) {
        this.cm = cm;
    }

    @Override
    public CmId createId(PortSpace space, Object userContext) throws VerbsException {
        if (closed) {
            throw new VerbsException(Errno.EINVAL, "the event channel is closed");
        }
        if (space == null) {
            throw new VerbsException(Errno.EINVAL, "a communication identifier needs a port space (TCP or UDP)");
        }
        EmulatedCmId id = new EmulatedCmId(cm, this, space, userContext);
        ids.add(id);
        return id;
    }

    @Override
    public CmEvent pollEvent() {
        return events.poll();
    }

    @Override
    public CmEvent getEvent(long timeout, TimeUnit unit) throws InterruptedException {
        CmEvent e = events.poll();
        if (e != null) {
            return e;
        }
        cm.leaveAll();
        return events.poll(timeout, unit);
    }

    /** Destroys the identifiers still open on it (requests first, then listeners), then stops taking events. */
    @Override
    public void close() throws VerbsException {
        VerbsException first = null;
        for (EmulatedCmId id : new ArrayList<>(ids)) {
            try {
                id.close();
            } catch (VerbsException e) {
                first = first == null ? e : first;
            }
        }
        closed = true;
        events.clear();
        if (first != null) {
            throw first;
        }
    }

    // ---- for the identifiers ----

    void post(CmEvent event) {
        if (!closed) {
            events.add(event);
        }
    }

    /** Where the NIC's CM hands the events of what {@code origin} started: its connection, or its listener's requests. */
    CmEventSink sinkFor(EmulatedCmId origin, EmulatedDevice device) {
        return event -> deliver(event, origin, device);
    }

    void forget(EmulatedCmId id) {
        ids.remove(id);
        byConnection.values().removeIf(owner -> owner == id);
    }

    /**
     * On a NIC thread: the CM's event as the API's, on the identifier it concerns. A connection request for
     * a listener that is gone is not taken: the CM refuses it itself.
     */
    private boolean deliver(io.jrxe.rnic.cm.CmEvent event, EmulatedCmId origin, EmulatedDevice device) {
        if (closed) {
            return false;
        }
        if (event.type() == CmEventType.CONNECT_REQUEST) {
            CmEvent request = origin.requestArrived(event, device);
            if (request == null) {
                return false;
            }
            EmulatedCmId requested = (EmulatedCmId) request.id();
            ids.add(requested);
            byConnection.put(event.connection(), requested);
            post(request);
            return true;
        }
        EmulatedCmId id = byConnection.getOrDefault(event.connection(), origin);
        CmEvent translated = id.translate(event);
        if (translated != null) {
            post(translated);
        }
        return true;
    }
}
