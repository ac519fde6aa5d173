package io.jrxe.tools.common;

import io.jrxe.rnic.cc.CongestionControl;
import io.jrxe.rnic.cc.CongestionControlChoice;
import io.jrxe.rnic.memory.OdpSettings;
import io.jrxe.rnic.memory.RemoteFaultPolicy;
import io.jrxe.tools.BadOption;
import io.jrxe.verbs.emulated.Progress;
import io.jrxe.wire.port.fault.FaultSpec;
import picocli.CommandLine.Option;

import java.net.InetAddress;
import java.nio.file.Path;

/**
 * The options every command that opens a device shares: which device (its name, and for a jrxe NIC the address
 * that gives it its RoCEv2 GID), where to capture its packets, and how long to wait for a peer. Mixed into each
 * command with picocli's {@code @Mixin}. A name the kernel has (rxe0) opens the kernel's device through
 * libibverbs (see {@link ProviderChoice}); --addr, --if-mtu and --capture are a jrxe NIC's and refused there.
 */
public final class DeviceOptions {
    public static final String DEFAULT_DEVICE = "jrxe0";
    static final String DEFAULT_ADDRESS = "127.0.0.1";
    static final int DEFAULT_INTERFACE_MTU = 1500;

    @Option(names = {"-d", "--ib-dev"}, paramLabel = "NAME", defaultValue = DEFAULT_DEVICE,
            description = "the device: jrxe0, jrxe1, ... is a jrxe NIC made for the command; another name is the "
                    + "kernel's device of that name (rxe0), through libibverbs (default: ${DEFAULT-VALUE})")
    String deviceName;

    @Option(names = "--provider", paramLabel = "PROVIDER",
            description = "emulated (a jrxe NIC, whatever its name) or native (the kernel's device, through libibverbs); "
                    + "default: by the name")
    String provider;

    @Option(names = "--addr", paramLabel = "IP",
            description = "a jrxe NIC's IP address: it sends RoCEv2 from UDP port 4791 there (on --wire shm any "
                    + "address will do: its ring is named after it), and its GID is made from it (default: "
                    + DEFAULT_ADDRESS + ")")
    String address;

    @Option(names = "--if-mtu", paramLabel = "BYTES",
            description = "the MTU of the network interface a jrxe NIC sits on; the port's active MTU follows from it "
                    + "as in rxe: 1500 gives 1024, 4200 and more give 4096 (default: " + DEFAULT_INTERFACE_MTU + ")")
    Integer interfaceMtu;

    @Option(names = "--rxe-flush-icrc",
            description = "a jrxe NIC sends RC FLUSH with the ICRC Linux's rxe computes for it (over the FLUSH's headers twice, "
                    + "6.2 to 6.12 at least) instead of the IBTA's, which rxe drops; needed to FLUSH a kernel rxe's memory. "
                    + "Either kind is accepted on receipt")
    boolean rxeFlushIcrc;

    @Option(names = "--capture", paramLabel = "FILE",
            description = "write every packet the device sends and receives to FILE (pcapng; tshark and Wireshark read it)")
    Path capture;

    @Option(names = "--capture-max-packets", paramLabel = "N", defaultValue = "1000000",
            description = "keep at most N packets in the capture; later ones are counted, not written (default: ${DEFAULT-VALUE})")
    long captureMaxPackets;

    @Option(names = "--capture-max-mb", paramLabel = "MB", defaultValue = "512",
            description = "keep at most MB mebibytes of packets in the capture (default: ${DEFAULT-VALUE})")
    long captureMaxMebibytes;

    @Option(names = "--capture-snaplen", paramLabel = "BYTES", defaultValue = "0",
            description = "keep at most BYTES of each captured frame, headers first (0: whole frames, the default; "
                    + "at full rate a whole-packet capture writes as many bytes as the device moves)")
    int captureSnapLength;

    @Option(names = "--faults", paramLabel = "SPEC",
            description = "a jrxe NIC does these faults to its own packets on send and on receive, seeded: rates "
                    + "(loss=P,dup=P,reorder=P[:TIME],delay=TIME,corrupt=P,seed=N,dir=send|recv|both) and rules, one a "
                    + "clause after ';' (drop|dup|corrupt|delay:TIME|truncate:BYTES|rnr[:TIMER]|mark with nth=N,op=OPCODE,"
                    + "qp=QPN,dir=send|recv,p=P,count=N); e.g. 'loss=0.01,seed=7;drop,nth=3;delay:5ms,op=ack'. "
                    + "The capture says what each fault did (docs/commands.md, --faults)")
    String faults;

    @Option(names = "--cc", paramLabel = "NAME[:K=V,...]",
            description = "a jrxe NIC's congestion control: none (a cap of packets in flight, no rate), dcqcn (a rate "
                    + "per QP that CNPs cut) or timely (a rate per QP that round-trip times move), with settings after "
                    + "a colon (dcqcn:profile=connectx,ai=10M); docs/congestion.md (default: none)")
    String congestionControl;

    @Option(names = "--ecn",
            description = "a jrxe NIC's packets on real UDP say ECT(0), ECN-capable, so that a switch or a qdisc that "
                    + "marks ECN sets CE on them instead of dropping them; the NIC reads each datagram's ECN field and "
                    + "answers a CE mark with a CNP (off by default: kernel rxe's packets are Not-ECT; docs/congestion.md)")
    boolean ecn;

    @Option(names = "--odp-faults", paramLabel = "POLICY",
            description = "what a jrxe NIC does when a peer's WRITE, READ or atomic reaches a page of an ON_DEMAND MR that "
                    + "is not in yet: in_line (rxe's: the request waits while the page comes in) or rnr_nak (hardware's: "
                    + "an RNR NAK, and the requester's retry finds the page); docs/odp.md (default: in_line)")
    String odpFaults;

    @Option(names = "--odp-implicit",
            description = "a jrxe NIC with implicit on-demand paging: one ON_DEMAND MR may cover the whole address "
                    + "space (the segments a program maps into it), and its ODP caps say ODP_SUPPORT_IMPLICIT; off by "
                    + "default, as kernel rxe has none (docs/odp.md)")
    boolean odpImplicit;

    /** A command that registers an implicit MR (pingpong -O) has its jrxe NIC made with implicit ODP, unasked. */
    private boolean implicitOdpForCommand;

    @Option(names = "--counters",
            description = "print the device's counters that are not zero when the command ends (rxe's hw_counters names)")
    boolean counters;

    @Option(names = "--progress", paramLabel = "MODE",
            description = "who runs a jrxe NIC: thread (a NIC thread of its own, on --wire shm its standby thread all "
                    + "the time; best for bandwidth) or invoker (this program's thread whenever it polls, a standby "
                    + "thread when it does not; best for latency); default: invoker for ping-pongs and latency tests, "
                    + "thread for the rest")
    String progress;

    @Option(names = "--wire", paramLabel = "WIRE",
            description = "what carries a jrxe NIC's packets: udp (RoCEv2 over the host's UDP sockets; reaches kernel rxe) "
                    + "or shm (the same packets through shared-memory rings, to jrxe NICs of this host only; any --addr "
                    + "will do, and the program's thread runs the NIC); docs/wire.md (default: udp)")
    String wire;

    /** What a command runs its jrxe NIC with when --progress is not given. */
    private Progress defaultProgress = Progress.NIC_THREAD;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "10",
            description = "how long to wait for the peer to connect (as a client), to answer on the TCP connection, "
                    + "and for the next completion of a test; a bandwidth client adds the time its QPs' first "
                    + "cq_mod messages take at 32 MiB/s, since every QP sends those before any completes "
                    + "(default: ${DEFAULT-VALUE})")
    double timeoutSeconds;

    @Option(names = "--accept-timeout", paramLabel = "SECONDS", defaultValue = "0",
            description = "how long a server waits for its client; 0 waits for ever, as the rdma-core and perftest "
                    + "servers do (default: ${DEFAULT-VALUE})")
    double acceptTimeoutSeconds;

    public String deviceName() {
        return deviceName;
    }

    /** Which provider -d and --provider pick; a one-line error when the name is nobody's. */
    public ProviderChoice choice() {
        return ProviderChoice.of(deviceName, provider, io.jrxe.verbs.facade.Verbs.nativeProvider());
    }

    public InetAddress address() {
        String text = address == null ? DEFAULT_ADDRESS : address;
        return IpAddressOption.parse(text, "--addr " + text + ": not an IP address");
    }

    public int interfaceMtu() {
        int mtu = interfaceMtu == null ? DEFAULT_INTERFACE_MTU : interfaceMtu;
        if (mtu < 336 || mtu > 65536) {
            throw new BadOption("--if-mtu " + mtu + ": an interface MTU from 336 (a 256-byte path MTU after rxe's "
                    + "80 bytes of headroom) to 65536");
        }
        return mtu;
    }

    /**
     * Refuses the options that only a jrxe NIC has when -d names a kernel device: its addresses and MTU are its
     * network interface's, and its packets leave from the kernel, where jrxe cannot see them.
     */
    public void checkNative(String name) {
        if (address != null) {
            throw new BadOption("--addr applies to jrxe NICs only: " + name + " is the kernel's, with the addresses of its "
                    + "network interface (its GIDs: jrxe devinfo -v -d " + name + ")");
        }
        if (interfaceMtu != null) {
            throw new BadOption("--if-mtu applies to jrxe NICs only: " + name + " is the kernel's, its MTU follows its "
                    + "network interface's (ip link set IFACE mtu BYTES)");
        }
        if (progress != null) {
            throw new BadOption("--progress applies to jrxe NICs only: the kernel runs " + name + " in its own threads");
        }
        if (wire != null) {
            throw new BadOption("--wire applies to jrxe NICs only: the kernel's " + name + " sends through its network "
                    + "interface");
        }
        if (rxeFlushIcrc) {
            throw new BadOption("--rxe-flush-icrc applies to jrxe NICs only: " + name + " computes its own ICRCs");
        }
        if (faults != null) {
            throw new BadOption("--faults applies to jrxe NICs only: " + name + " sends from the kernel, where jrxe cannot "
                    + "touch its packets; give the faults to the jrxe peer, or use tc netem on the interface");
        }
        if (ecn) {
            throw new BadOption("--ecn applies to jrxe NICs only: the kernel's " + name + " sends Not-ECT and reads no ECN "
                    + "field");
        }
        if (congestionControl != null) {
            throw new BadOption("--cc applies to jrxe NICs only: the kernel's " + name + " has no congestion control to "
                    + "choose (rxe sends Not-ECT and ignores CNPs)");
        }
        if (odpFaults != null) {
            throw new BadOption("--odp-faults applies to jrxe NICs only: the kernel's " + name + " resolves its page "
                    + "faults its own way");
        }
        if (odpImplicit) {
            throw new BadOption("--odp-implicit applies to jrxe NICs only: whether the kernel's " + name + " has implicit "
                    + "on-demand paging is its driver's (jrxe devinfo -v -d " + name + " lists ODP_SUPPORT_IMPLICIT "
                    + "when it has)");
        }
        if (capture != null) {
            throw new BadOption("--capture cannot capture " + name + ": the kernel sends its packets, jrxe never sees them; "
                    + "run tcpdump -i IFACE -w FILE udp port 4791 beside the command (packets between two QPs of "
                    + name + " itself stay inside the kernel and cross no interface)");
        }
    }

    /**
     * Checks every value that has a range, so that a bad one is refused before a device opens or a peer is waited
     * for, also when the option it limits is not used (--capture-max-mb without --capture).
     */
    public void checkValues() {
        wire();
        progress();
        faults();
        congestionControl();
        odp();
        interfaceMtu();
        captureMaxPackets();
        captureMaxBytes();
        captureSnapLength();
        timeoutMillis();
        acceptTimeoutMillis();
    }

    /** A latency command runs its jrxe NIC on its own polling thread unless --progress says otherwise. */
    public void defaultProgress(Progress mode) {
        defaultProgress = mode;
    }

    public Progress progress() {
        if (progress == null) {
            // Over IPv6 kernel rxe sends a zero UDP checksum, which only a socket with UDP_NO_CHECK6_RX accepts: the
            // invoked NIC's JDK sockets cannot set it, so an IPv6 device on UDP keeps its NIC thread unless told otherwise.
            return address() instanceof java.net.Inet6Address && !sharedMemoryWire() ? Progress.NIC_THREAD : defaultProgress;
        }
        for (Progress p : Progress.values()) {
            if (p.optionName().equals(progress)) {
                return p;
            }
        }
        throw new BadOption("--progress " + progress + ": thread or invoker");
    }

    /** Whether --wire asks for the shared-memory wire; a one-line error for a wire nobody has. */
    public boolean sharedMemoryWire() {
        return wire() == WireChoice.SHM;
    }

    private WireChoice wire() {
        return WireChoice.of(wire);
    }

    public Path capture() {
        return capture;
    }

    /** The faults of --faults, none when it is not given; a one-line error for a bad specification. */
    public FaultSpec faults() {
        return faults(faults);
    }

    /** The faults --faults {@code text} asks for, none for null; a one-line error for text that does not parse. */
    public static FaultSpec faults(String text) {
        if (text == null) {
            return FaultSpec.NONE;
        }
        try {
            return FaultSpec.parse(text);
        } catch (IllegalArgumentException e) {
            throw new BadOption("--faults '" + text + "': " + e.getMessage());
        }
    }

    /** The congestion control of --cc, none's when it is not given; a one-line error for a name no part has. */
    public CongestionControl.Factory congestionControl() {
        String name = congestionControl == null ? "none" : congestionControl;
        try {
            return CongestionControlChoice.named(name);
        } catch (IllegalArgumentException e) {
            throw new BadOption("--cc " + name + ": " + e.getMessage());
        }
    }

    /**
     * A jrxe NIC's on-demand paging: rxe's unless --odp-faults picks the other remote fault policy, with implicit ODP
     * when --odp-implicit or the command asks for it.
     */
    public OdpSettings odp() {
        OdpSettings settings;
        if (odpFaults == null || odpFaults.equals("in_line")) {
            settings = OdpSettings.RXE;
        } else if (odpFaults.equals("rnr_nak")) {
            settings = OdpSettings.RXE.withRemoteFaults(RemoteFaultPolicy.RNR_NAK);
        } else {
            throw new BadOption("--odp-faults " + odpFaults + ": in_line or rnr_nak");
        }
        return settings.withImplicit(odpImplicit || implicitOdpForCommand);
    }

    /** The command registers an implicit MR: a jrxe NIC it makes has implicit ODP on (a kernel device is asked as it is). */
    public void implicitOdpForCommand() {
        implicitOdpForCommand = true;
    }

    public long captureMaxPackets() {
        if (captureMaxPackets < 1) {
            throw new BadOption("--capture-max-packets " + captureMaxPackets + ": at least 1");
        }
        return captureMaxPackets;
    }

    public long captureMaxBytes() {
        if (captureMaxMebibytes < 1 || captureMaxMebibytes > (1L << 32)) {
            throw new BadOption("--capture-max-mb " + captureMaxMebibytes + ": from 1 to 4294967296");
        }
        return captureMaxMebibytes << 20;
    }

    public int captureSnapLength() {
        if (captureSnapLength != 0 && (captureSnapLength < 54 || captureSnapLength > 65535)) {
            throw new BadOption("--capture-snaplen " + captureSnapLength + ": 0 (whole frames) or 54 to 65535 "
                    + "(54 keeps the Ethernet, IPv4, UDP and base transport headers)");
        }
        return captureSnapLength;
    }

    public boolean counters() {
        return counters;
    }

    /** The peer timeout in milliseconds (at least 1). */
    public int timeoutMillis() {
        return millis(timeoutSeconds, "--timeout", false);
    }

    /** The accept timeout in milliseconds; 0 means for ever. */
    public int acceptTimeoutMillis() {
        return millis(acceptTimeoutSeconds, "--accept-timeout", true);
    }

    private static int millis(double seconds, String option, boolean zeroAllowed) {
        if (Double.isNaN(seconds) || seconds < 0 || (!zeroAllowed && seconds == 0) || seconds > 86_400) {
            throw new BadOption(option + " " + seconds + ": give a number of seconds " + (zeroAllowed ? "from 0" : "above 0")
                    + " to 86400");
        }
        return seconds == 0 ? 0 : (int) Math.max(1, Math.round(seconds * 1000));
    }

    /** How long the device runs traffic through itself before use, so that the JIT has compiled its data path. */
    private int jitWarmupMillis;
    /** Whether the warm-up then goes on while the JIT still compiles (a bandwidth test, with C2). */
    private boolean jitWarmupUntilQuiet;

    /** Opens the device these options describe; start-up warnings go to {@code err}. */
    public LocalDevice open(java.io.PrintWriter err) {
        return LocalDevice.open(this, err);
    }

    /** A benchmark asks for a longer warm-up than the few rounds every device gets. */
    public void jitWarmupMillis(int millis) {
        jitWarmupMillis = millis;
    }

    int jitWarmupMillis() {
        return jitWarmupMillis;
    }

    /** Past its time the warm-up goes on while the JIT's compilers are busy, up to three times as long. */
    public void jitWarmupUntilQuiet(boolean untilQuiet) {
        jitWarmupUntilQuiet = untilQuiet;
    }

    boolean jitWarmupUntilQuiet() {
        return jitWarmupUntilQuiet;
    }
}
