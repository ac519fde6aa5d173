package io.jrxe.verbs.emulated;

import io.jrxe.rnic.NicResources;
import io.jrxe.rnic.memory.MptEntry;
import io.jrxe.rnic.memory.Translation;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.VerbsException;

import java.lang.foreign.MemorySegment;

final class EmulatedMr implements Mr, OwnedByContext {
    private final EmulatedDevice device;
    private final NicResources rnic;
    private final MptEntry entry;
    private final CloseOnce closing = new CloseOnce();
    private volatile int lkey;
    private volatile int rkey;

    EmulatedMr(EmulatedDevice device, MptEntry entry) {
        this.device = device;
        this.rnic = device.rnic();
        this.entry = entry;
        this.lkey = entry.key();
        this.rkey = entry.rkey();
    }

    @Override
    public int lkey() {
        return lkey;
    }

    @Override
    public int rkey() {
        return rkey;
    }

    @Override
    public long iova() {
        return entry.iova();
    }

    @Override
    public long length() {
        return entry.length();
    }

    @Override
    public int access() {
        return entry.access();
    }

    @Override
    public MemorySegment memory() {
        return entry.segment();
    }

    @Override
    public void rereg(Pd pd, MemorySegment memory, Integer access) throws VerbsException {
        EmulatedPd newPd = pd == null ? null : Commands.own(pd, EmulatedPd.class, "PD");
        Commands.run(rnic, () -> rnic.memory().reregisterMr(lkey, newPd == null ? null : newPd.pd(), memory, null, access));
        lkey = entry.key();
        rkey = entry.rkey();
    }

    @Override
    public void advisePrefetch(long iova, long length, boolean forWrite, boolean flush) throws VerbsException {
        Commands.run(rnic, () -> rnic.memory().prefetch(lkey, iova, length, forWrite, flush));
    }

    @Override
    public void invalidate(long iova, long length) throws VerbsException {
        Commands.run(rnic, () -> rnic.memory().invalidatePages(lkey, iova, length));
    }

    /** Whether this MR is one of {@code nic}'s. */
    boolean belongsTo(NicResources nic) {
        return rnic == nic;
    }

    /** The MTT walk of {@code iova} through this MR's L_Key, as a command on the NIC thread. */
    Translation translate(long iova) throws VerbsException {
        return Commands.call(rnic, () -> rnic.memory().inspect(lkey, iova));
    }

    @Override
    public boolean isClosed() {
        return closing.isClosed();
    }

    @Override
    public void close() throws VerbsException {
        closing.close(device, rnic, () -> rnic.memory().deregisterMr(lkey));
    }

    @Override
    public String toString() {
        return String.format("MR lkey 0x%08x", lkey);
    }
}
