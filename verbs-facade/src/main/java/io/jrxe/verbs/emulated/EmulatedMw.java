package io.jrxe.verbs.emulated;

import io.jrxe.rnic.NicResources;
import io.jrxe.rnic.memory.KeyKind;
import io.jrxe.rnic.memory.MptEntry;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Mw;
import io.jrxe.verbs.VerbsException;

final class EmulatedMw implements Mw, OwnedByContext {
    private final EmulatedDevice device;
    private final NicResources rnic;
    private final MptEntry entry;
    private final CloseOnce closing = new CloseOnce();
    private volatile int rkey;

    EmulatedMw(EmulatedDevice device, MptEntry entry) {
        this.device = device;
        this.rnic = device.rnic();
        this.entry = entry;
        this.rkey = entry.key();
    }

    @Override
    public int rkey() {
        return rkey;
    }

    @Override
    public int type() {
        return entry.kind() == KeyKind.MW_TYPE_1 ? 1 : 2;
    }

    @Override
    public int bind(Mr mr, long addr, long length, int access) throws VerbsException {
        if (type() != 1) {
            throw new VerbsException(io.jrxe.verbs.Errno.EINVAL,
                    "a type 2 memory window is bound by a BIND_MW work request, not by ibv_bind_mw");
        }
        int mrKey = mr.lkey();
        rkey = Commands.call(rnic, () -> rnic.memory().bindMw(rkey, null, mrKey, addr, length, access, -1));
        return rkey;
    }

    @Override
    public boolean isClosed() {
        return closing.isClosed();
    }

    @Override
    public void close() throws VerbsException {
        closing.close(device, rnic, () -> rnic.memory().deallocateMw(rkey));
    }

    @Override
    public String toString() {
        return String.format("MW type %d rkey 0x%08x", type(), rkey);
    }
}
