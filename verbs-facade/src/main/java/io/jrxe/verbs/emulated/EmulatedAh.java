package io.jrxe.verbs.emulated;

import io.jrxe.rnic.AddressHandle;
import io.jrxe.rnic.NicResources;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.Ah;
import io.jrxe.verbs.VerbsException;

final class EmulatedAh implements Ah, OwnedByContext {
    private final EmulatedDevice device;
    private final NicResources rnic;
    private final AddressHandle ah;
    private final CloseOnce closing = new CloseOnce();

    EmulatedAh(EmulatedDevice device, AddressHandle ah) {
        this.device = device;
        this.rnic = device.rnic();
        this.ah = ah;
    }

    AddressHandle ah() {
        return ah;
    }

    @Override
    public AddressVector av() {
        return ah.av();
    }

    @Override
    public int handle() {
        return ah.handle();
    }

    @Override
    public boolean isClosed() {
        return closing.isClosed();
    }

    @Override
    public void close() throws VerbsException {
        closing.close(device, rnic, () -> rnic.destroyAh(ah));
    }
}
