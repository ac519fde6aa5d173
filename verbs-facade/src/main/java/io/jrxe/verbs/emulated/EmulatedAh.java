package io.jrxe.verbs.emulated;

import io.jrxe.rnic.AddressHandle;
import io.jrxe.rnic.NicResources;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.Ah;
import io.jrxe.verbs.VerbsException;

final class EmulatedAh implements Ah {
    private final NicResources rnic;
    private final AddressHandle ah;

    EmulatedAh(NicResources rnic, AddressHandle ah) {
        this.rnic = rnic;
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
    public void close() throws VerbsException {
        Commands.run(rnic, () -> rnic.destroyAh(ah));
    }
}
