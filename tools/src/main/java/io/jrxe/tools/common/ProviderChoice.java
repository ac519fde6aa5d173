package io.jrxe.tools.common;

import io.jrxe.tools.BadOption;
import io.jrxe.tools.UserError;
import io.jrxe.verbs.Device;
import io.jrxe.verbs.emulated.EmulatedProvider;
import io.jrxe.verbs.nativ.NativeProvider;

import java.util.ArrayList;
import java.util.List;

/**
 * Which provider a command's {@code -d NAME} means. A name that starts with "jrxe" (jrxe0, jrxe1, ...) is a jrxe
 * NIC made for the command, without asking the kernel; any other name is the kernel's device of that name (rxe0,
 * mlx5_0), opened through libibverbs, or an error that says why the kernel has none (no RDMA in the kernel, no
 * libibverbs, or the names it has). {@code --provider} says it explicitly: {@code emulated} makes a jrxe NIC of
 * any name, {@code native} looks the name up among the kernel's devices only.
 */
public sealed interface ProviderChoice {
    /** The prefix of the names jrxe gives its own devices. */
    String JRXE_PREFIX = "jrxe";

    String name();

    /** A jrxe NIC of this name, made for the command. */
    record Emulated(String name) implements ProviderChoice {
    }

    /** A kernel device, opened through libibverbs. */
    record Native(Device device) implements ProviderChoice {
        @Override
        public String name() {
            return device.name();
        }
    }

    /**
     * The choice for {@code name}; {@code provider} is null (decide by the name), "emulated" or "native".
     * A provider other than the two is a {@link BadOption}; a name nobody has, a {@link UserError}
     * (exit 2): what is missing is the machine's device, not a value the command line could spell right.
     */
    static ProviderChoice of(String name, String provider, NativeProvider natives) {
        if (provider != null && !provider.equals(EmulatedProvider.NAME) && !provider.equals(NativeProvider.NAME)) {
            throw new BadOption("--provider " + provider + ": " + EmulatedProvider.NAME + " (a jrxe NIC) or "
                    + NativeProvider.NAME + " (a kernel device through libibverbs)");
        }
        if (EmulatedProvider.NAME.equals(provider) || provider == null && name.startsWith(JRXE_PREFIX)) {
            return new Emulated(name);
        }
        List<Device> kernel = natives.devices();
        for (Device d : kernel) {
            if (d.name().equals(name)) {
                return new Native(d);
            }
        }
        List<String> names = new ArrayList<>();
        kernel.forEach(d -> names.add(d.name()));
        String why = natives.whyNoDevices().orElse("the kernel's are " + String.join(", ", names));
        String hint = provider == null ? "; jrxe's own devices are named " + JRXE_PREFIX + "0, " + JRXE_PREFIX
                + "1, ... (--provider emulated makes one of any name)" : "";
        throw new UserError("no " + (provider == null ? "" : "native ") + "RDMA device named " + name + ": " + why + hint);
    }
}
