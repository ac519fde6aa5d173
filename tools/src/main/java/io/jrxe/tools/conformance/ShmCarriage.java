package io.jrxe.tools.conformance;

import io.jrxe.tools.UserError;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.shm.ShmDirectory;
import io.jrxe.wire.port.shm.ShmDoorbell;
import io.jrxe.wire.port.shm.ShmPacketRecord;
import io.jrxe.wire.port.shm.ShmRing;
import io.jrxe.wire.port.shm.ShmWaiter;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The tester on the shared-memory wire: its packets go into the target's ring as {@link ShmPacketRecord}s that
 * name the tester's GID (or the third address's, for forged sources) as their sender, and the target's answers
 * come into a ring of the tester's own, made at its address and port 4791 as a device's would be. Answers to the
 * third address find no ring there and are lost, as on UDP where nothing listens at the third address's port 4791.
 */
final class ShmCarriage implements TesterCarriage {
    /** Room for every answer a case's burst draws, many times over. */
    private static final int RING_BYTES = 1 << 20;

    private final ShmDirectory directory;
    private final PeerAddress self;
    private final PeerAddress third;
    private final ShmRing inbox;
    /** The inbox's memory as packets are read. */
    private final ByteBuffer inboxView;
    private final ShmWaiter waiter;
    private final ShmDoorbell doorbell = new ShmDoorbell();
    private final Map<PeerAddress, ShmRing> targets = new HashMap<>();
    private final ShmRing.RecordHandler take = this::take;
    private byte[] taken;
    private int takenSourcePort;
    private boolean takenFromTarget;
    private PeerAddress expectedSender;

    ShmCarriage(ShmDirectory directory, PeerAddress self, PeerAddress third) {
        this.directory = directory;
        this.self = self;
        this.third = third;
        Path file = directory.ringOf(self, PeerAddress.ROCE_PORT);
        try {
            Files.createDirectories(directory.path());
            inbox = ShmRing.create(file, RING_BYTES);
        } catch (IOException e) {
            throw new UserError("cannot make the tester's shared-memory ring " + file + ": " + e.getMessage()
                    + " (another tester or device on " + self.address().getHostAddress() + "? pick another with --addr)", e);
        }
        inbox.askForIcrcs(); // the cases check the ICRC of each answer, as they do over UDP
        inboxView = ShmPacketRecord.view(inbox);
        waiter = new ShmWaiter(inbox);
    }

    @Override
    public String describe() {
        return "shared-memory rings in " + directory.path();
    }

    @Override
    public String withoutRaw() {
        return "the shared-memory wire carries no IP header";
    }

    @Override
    public int sourcePort(PacketRecipe.Source from) {
        return PeerAddress.ROCE_PORT;
    }

    @Override
    public void send(byte[] roce, PacketRecipe.Source from, PeerAddress target) {
        ShmRing ring = ringOf(target);
        if (ShmPacketRecord.META + roce.length > ring.maxPayloadLength()) {
            throw new UnsentPacket("the tester's " + roce.length + "-byte packet is more than the target's ring "
                    + ring.file() + " holds in one record");
        }
        long claimed = ShmPacketRecord.claim(ring, roce.length);
        if (claimed < 0) {
            throw new UnsentPacket("the target's ring " + ring.file() + " has no room for the tester's " + roce.length
                    + "-byte packet");
        }
        byte[] gid = (from == PacketRecipe.Source.THIRD ? third : self).gid();
        ShmPacketRecord.write(ShmPacketRecord.view(ring), (int) claimed, gid, sourcePort(from), 0, true,
                ByteBuffer.wrap(roce), 0, roce.length);
        if (!ring.commit(claimed)) {
            throw new UnsentPacket("the target's ring " + ring.file() + " gave the tester's packet up before it was written");
        }
        doorbell.wakeIfAsleep(ring);
    }

    private ShmRing ringOf(PeerAddress target) {
        ShmRing ring = targets.get(target);
        if (ring != null && ring.ownerClosed()) {
            ring.close();
            ring = null;
        }
        if (ring == null) {
            Path file = directory.ringOf(target, PeerAddress.ROCE_PORT);
            try {
                ring = ShmRing.open(file);
            } catch (IOException e) {
                throw new UnsentPacket("the target has no shared-memory ring at " + file + ": " + e.getMessage());
            }
            targets.put(target, ring);
        }
        return ring;
    }

    @Override
    public Arrival receive(PeerAddress target, long deadlineNanos) {
        expectedSender = target;
        while (true) {
            taken = null;
            if (inbox.read(take, 1) == 1 && taken != null) {
                if (takenFromTarget) {
                    return new Arrival(taken, takenSourcePort);
                }
                continue; // another device's packet to this address
            }
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                return null;
            }
            try {
                waiter.await(left);
            } catch (IOException e) {
                Thread.onSpinWait(); // the doorbell's selector failed: look at the ring again until the deadline
            }
        }
    }

    /** One record of the inbox, copied out: the ring's space is freed when the read returns. */
    private void take(int type, ByteBuffer ringOrder, int offset, int length) {
        if (!ShmPacketRecord.isPacket(type, length)) {
            return;
        }
        ByteBuffer b = inboxView;
        byte[] gid = new byte[16];
        b.get(ShmPacketRecord.gidAt(offset), gid);
        takenFromTarget = Arrays.equals(gid, expectedSender.gid());
        takenSourcePort = ShmPacketRecord.sourcePort(b, offset);
        taken = new byte[ShmPacketRecord.packetLength(type, length)];
        b.get(ShmPacketRecord.packetAt(type, offset), taken);
    }

    @Override
    public void close() {
        waiter.close();
        doorbell.close();
        for (ShmRing ring : targets.values()) {
            ring.close();
        }
        inbox.close();
    }
}
