package io.jrxe.verbs.nativ;

import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.Ah;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.nativ.abi.IbvAh;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/** An address handle of a kernel device (struct ibv_ah); UD work requests name it by its handle. */
final class NativeAh implements Ah {
    private final CloseOnce closing = new CloseOnce();
    private final NativeContext context;
    private final MemorySegment ah;
    private final AddressVector av;

    NativeAh(NativeContext context, MemorySegment ah, AddressVector av) {
        this.context = context;
        this.ah = ah.reinterpret(IbvAh.SIZE);
        this.av = av;
        context.remember(this);
    }

    MemorySegment ah() {
        return ah;
    }

    @Override
    public AddressVector av() {
        return av;
    }

    @Override
    public int handle() {
        return ah.get(JAVA_INT, IbvAh.HANDLE);
    }

    @Override
    public void close() throws VerbsException {
        closing.close(() -> {
            context.lib.check("ibv_destroy_ah", ah);
            context.forget(this);
        });
    }
}
