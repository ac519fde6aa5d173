package io.jrxe.examples;

import io.jrxe.verbs.*;
import io.jrxe.verbs.cm.*;
import io.jrxe.verbs.facade.Verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/** An RC connection made by the connection manager (as rping makes one), one SEND over it, and a disconnect. */
public class FirstConnect {
    @SuppressWarnings("try") // the NICs are resources the program holds, not objects it calls
    public static void main(String[] args) throws Exception {
        String[] ip = args.length == 2 ? args : new String[] {"127.0.0.1", "127.0.0.2"};
        InetSocketAddress client = new InetSocketAddress(InetAddress.getByName(ip[0]), 0);
        InetSocketAddress server = new InetSocketAddress(InetAddress.getByName(ip[1]), 7174);
        RdmaCm cm = Verbs.emulated().rdmaCm();
        try (Arena arena = Arena.ofShared();
             var nicA = Verbs.emulated().createUdp("connect-a", client.getAddress());
             var nicB = Verbs.emulated().createUdp("connect-b", server.getAddress());
             CmEventChannel serverEvents = cm.createEventChannel();
             CmEventChannel clientEvents = cm.createEventChannel()) {
            QpCapabilities caps = new QpCapabilities(16, 16, 1, 1, 0);

            // The passive side: bind an address and port, listen.
            CmId listener = serverEvents.createId(PortSpace.TCP, null);
            listener.bindAddr(server);
            listener.listen(1);

            // The active side: resolve the peer's IP address to a local NIC and a route, make a QP, connect.
            CmId active = clientEvents.createId(PortSpace.TCP, null);
            active.resolveAddr(client, server, 2000);
            expect(clientEvents, CmEventType.ADDR_RESOLVED);
            active.resolveRoute(2000);
            expect(clientEvents, CmEventType.ROUTE_RESOLVED);
            Cq cqA = active.context().createCq(16, null);
            Qp qpA = active.createQp(null, new QpInitAttributes(QpType.RC, cqA, cqA, null, caps, false));
            active.connect(ConnectionParameters.defaults().withPrivateData("hello".getBytes()));

            // The request arrives on a new identifier: give it a QP with a receive posted, and accept.
            CmEvent request = expect(serverEvents, CmEventType.CONNECT_REQUEST);
            System.out.println("connect request, private data: " + new String(request.privateData(), 0, 5));
            CmId passive = request.id();
            Cq cqB = passive.context().createCq(16, null);
            Qp qpB = passive.createQp(null, new QpInitAttributes(QpType.RC, cqB, cqB, null, caps, false));
            MemorySegment inbox = arena.allocate(64);
            Mr inboxMr = passive.pd().regMr(inbox, Access.LOCAL_WRITE);
            RecvWr recv = new RecvWr(1);
            recv.sgl.add(inbox.address(), 64, inboxMr.lkey());
            qpB.postRecv(recv);
            passive.accept(ConnectionParameters.defaults());
            expect(clientEvents, CmEventType.ESTABLISHED);
            expect(serverEvents, CmEventType.ESTABLISHED);

            // The CM moved both QPs to RTS with what the exchange carried: no QPNs or PSNs to swap by hand.
            MemorySegment message = arena.allocate(64);
            message.setString(0, "Hello over rdma_cm!");
            Mr messageMr = active.pd().regMr(message, Access.LOCAL_WRITE);
            SendWr send = new SendWr(1);
            send.flags = SendWr.SIGNALED;
            send.sgl.add(message.address(), 64, messageMr.lkey());
            qpA.postSend(send);
            WorkCompletion[] wc = {new WorkCompletion()};
            while (cqB.poll(wc) == 0) {
                Thread.onSpinWait();
            }
            System.out.println("received: " + wc[0].status() + " " + inbox.getString(0));

            active.disconnect();
            expect(clientEvents, CmEventType.DISCONNECTED);
            expect(serverEvents, CmEventType.DISCONNECTED);
            System.out.println("disconnected");
            active.destroyQp();
            passive.destroyQp();
        }
    }

    /** The next event of the channel, which must be of the expected type. */
    static CmEvent expect(CmEventChannel events, CmEventType expected) throws Exception {
        CmEvent e = events.getEvent(5, TimeUnit.SECONDS);
        if (e == null || e.type() != expected) {
            throw new IllegalStateException("expected " + expected + ", got " + (e == null ? "nothing in 5 s" : e));
        }
        return e;
    }
}
