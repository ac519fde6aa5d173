package io.jrxe.examples;

import io.jrxe.verbs.*;
import io.jrxe.verbs.cm.*;
import io.jrxe.verbs.emulated.Progress;
import io.jrxe.verbs.facade.Verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * A connection made by the connection manager, then an exchange of two SENDs with immediate data: the client's
 * "ping" carries 0xcafe, the server's "pong" 0xbeef, and each receive's completion delivers the number. Both NICs
 * run on the program's thread (Progress.INVOKER).
 */
public class CmImmediate {
    @SuppressWarnings("try") // the NICs are resources the program holds, not objects it calls
    public static void main(String[] args) throws Exception {
        String[] ip = args.length == 2 ? args : new String[] {"127.0.0.1", "127.0.0.2"};
        InetSocketAddress client = new InetSocketAddress(InetAddress.getByName(ip[0]), 0);
        InetSocketAddress server = new InetSocketAddress(InetAddress.getByName(ip[1]), 7174);
        RdmaCm cm = Verbs.emulated().rdmaCm();
        try (Arena arena = Arena.ofShared();
             var clientNic = Verbs.emulated().createUdp("imm-client", client.getAddress(), Progress.INVOKER);
             var serverNic = Verbs.emulated().createUdp("imm-server", server.getAddress(), Progress.INVOKER);
             CmEventChannel serverEvents = cm.createEventChannel();
             CmEventChannel clientEvents = cm.createEventChannel()) {
            CmId listener = serverEvents.createId(PortSpace.TCP, null);
            listener.bindAddr(server);
            listener.listen(1);

            CmId clientId = clientEvents.createId(PortSpace.TCP, null);
            clientId.resolveAddr(client, server, 2000);
            FirstConnect.expect(clientEvents, CmEventType.ADDR_RESOLVED);
            clientId.resolveRoute(2000);
            FirstConnect.expect(clientEvents, CmEventType.ROUTE_RESOLVED);
            End clientEnd = new End(clientId, arena);
            clientId.connect(ConnectionParameters.defaults());

            CmId serverId = FirstConnect.expect(serverEvents, CmEventType.CONNECT_REQUEST).id();
            End serverEnd = new End(serverId, arena);
            serverId.accept(ConnectionParameters.defaults());
            FirstConnect.expect(clientEvents, CmEventType.ESTABLISHED);
            FirstConnect.expect(serverEvents, CmEventType.ESTABLISHED);
            System.out.println("connected");

            clientEnd.send("ping", 0xcafe);
            System.out.println("server " + serverEnd.receive());
            serverEnd.send("pong", 0xbeef);
            System.out.println("client " + clientEnd.receive());

            clientId.disconnect();
            FirstConnect.expect(clientEvents, CmEventType.DISCONNECTED);
            FirstConnect.expect(serverEvents, CmEventType.DISCONNECTED);
            System.out.println("disconnected");
            clientId.destroyQp();
            serverId.destroyQp();
        }
    }

    /**
     * One side's QP on its CM identifier, with a CQ for its sends and one for its receives, and a receive posted
     * before the connection is made: a SEND that finds none would wait for one (RNR).
     */
    static final class End {
        private final Qp qp;
        private final Cq sendCq;
        private final Cq recvCq;
        private final MemorySegment inbox;
        private final MemorySegment outbox;
        private final Mr inboxMr;
        private final Mr outboxMr;

        End(CmId id, Arena arena) throws VerbsException {
            sendCq = id.context().createCq(4, null);
            recvCq = id.context().createCq(4, null);
            qp = id.createQp(null, new QpInitAttributes(QpType.RC, sendCq, recvCq, null, new QpCapabilities(4, 4, 1, 1, 0), false));
            inbox = arena.allocate(64);
            outbox = arena.allocate(64);
            inboxMr = id.pd().regMr(inbox, Access.LOCAL_WRITE);
            outboxMr = id.pd().regMr(outbox, Access.LOCAL_WRITE);
            RecvWr recv = new RecvWr(1);
            recv.sgl.add(inbox.address(), 64, inboxMr.lkey());
            qp.postRecv(recv);
        }

        void send(String text, int immediate) throws Exception {
            outbox.setString(0, text);
            SendWr send = new SendWr(1);
            send.opcode = WrOpcode.SEND_WITH_IMM;
            send.immData = immediate;
            send.flags = SendWr.SIGNALED;
            send.sgl.add(outbox.address(), text.length() + 1, outboxMr.lkey());
            qp.postSend(send);
            WorkCompletion wc = poll(sendCq);
            if (wc.status() != WcStatus.SUCCESS) {
                throw new IllegalStateException("the SEND failed: " + wc.status().description());
            }
        }

        /** The next receive's completion and message, in one line. */
        String receive() throws Exception {
            WorkCompletion wc = poll(recvCq);
            return String.format("received: %s %s, %d bytes \"%s\", immediate data %s", wc.status(), wc.opcode(),
                    wc.byteLen(), inbox.getString(0), wc.hasImmediate() ? String.format("0x%x", wc.immData()) : "none");
        }

        private static WorkCompletion poll(Cq cq) throws InterruptedException {
            WorkCompletion[] wc = {new WorkCompletion()};
            if (cq.poll(wc, 5, TimeUnit.SECONDS) == 0) {
                throw new IllegalStateException("no completion within 5 s");
            }
            return wc[0];
        }
    }
}
