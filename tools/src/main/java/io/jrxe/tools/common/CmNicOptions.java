package io.jrxe.tools.common;

import io.jrxe.tools.BadOption;
import io.jrxe.verbs.emulated.EmulatedProvider;
import io.jrxe.verbs.nativ.NativeProvider;
import picocli.CommandLine.Option;

import java.net.InetAddress;
import java.nio.file.Path;

/**
 * The options of the librdmacm programs (rping, ucmatose, udaddy) that say where their RDMA device is. Those
 * programs name no device: librdmacm finds the one that has the IP address they bind or send from. So a jrxe NIC
 * is made on that address (--addr overrides it), and --provider native leaves the choice to the kernel's
 * librdmacm. Mixed into each command with picocli's {@code @Mixin}; none of its names is a short option, since
 * the programs' own single letters (-d for debug, -a, -p, ...) mean other things than in the verbs tools.
 */
public final class CmNicOptions {
    @Option(names = "--provider", paramLabel = "PROVIDER", defaultValue = EmulatedProvider.NAME,
            description = "emulated (a jrxe NIC on the program's address, made for the command) or native (the "
                    + "kernel's RDMA devices through librdmacm) (default: ${DEFAULT-VALUE})")
    String provider;

    @Option(names = "--addr", paramLabel = "IP",
            description = "the jrxe NIC's IP address, when the program's own options give none or another one "
                    + "(default: the address the server binds or the client sends from, see above)")
    String address;

    @Option(names = "--if-mtu", paramLabel = "BYTES",
            description = "the MTU of the network interface the jrxe NIC sits on; 1500 gives a path MTU of 1024, "
                    + "4200 and more 4096, as in rxe (default: " + DeviceOptions.DEFAULT_INTERFACE_MTU + ")")
    Integer interfaceMtu;

    @Option(names = "--capture", paramLabel = "FILE",
            description = "write every packet the jrxe NIC sends and receives, CM MADs included, to FILE (pcapng)")
    Path capture;

    @Option(names = "--faults", paramLabel = "SPEC",
            description = "the jrxe NIC does these faults to its own packets, CM MADs included (the grammar of the verbs "
                    + "tools' --faults; docs/commands.md)")
    String faults;

    @Option(names = "--cc", paramLabel = "NAME",
            description = "the jrxe NIC's congestion control: none, dcqcn or timely (the verbs tools' --cc; "
                    + "docs/congestion.md) (default: none)")
    String congestionControl;

    @Option(names = "--counters", description = "print the jrxe NIC's counters that moved when the command ends")
    boolean counters;

    /** True for --provider native: the kernel's librdmacm, no jrxe NIC. */
    public boolean nativeProvider() {
        return switch (provider) {
            case EmulatedProvider.NAME -> false;
            case NativeProvider.NAME -> {
                if (address != null || interfaceMtu != null || capture != null || faults != null
                        || congestionControl != null) {
                    throw new BadOption("--addr, --if-mtu, --capture, --faults and --cc apply to a jrxe NIC only, not to "
                            + "--provider native");
                }
                yield true;
            }
            default -> throw new BadOption("--provider " + provider + ": " + EmulatedProvider.NAME + " (a jrxe NIC) or "
                    + NativeProvider.NAME + " (the kernel's devices through librdmacm)");
        };
    }

    /** --addr, or null when it is not given. */
    public InetAddress address() {
        return address == null ? null : IpAddressOption.parse(address, "--addr " + address + ": not an IP address");
    }

    /** The device options of a jrxe NIC named {@code name} on {@code nicAddress}, run by a NIC thread of its own. */
    DeviceOptions deviceOptions(String name, InetAddress nicAddress) {
        DeviceOptions o = new DeviceOptions();
        o.deviceName = name;
        o.provider = EmulatedProvider.NAME;
        o.address = nicAddress.getHostAddress();
        o.interfaceMtu = interfaceMtu;
        o.capture = capture;
        o.faults = faults;
        o.congestionControl = congestionControl;
        o.captureMaxPackets = 1_000_000;
        o.captureMaxMebibytes = 512;
        o.counters = counters;
        o.progress = io.jrxe.verbs.emulated.Progress.NIC_THREAD.optionName();
        o.timeoutSeconds = 10;
        o.checkValues();
        return o;
    }
}
