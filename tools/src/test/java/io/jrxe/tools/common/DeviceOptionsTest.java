package io.jrxe.tools.common;

import io.jrxe.rnic.memory.OdpSettings;
import io.jrxe.rnic.memory.RemoteFaultPolicy;
import io.jrxe.tools.UserError;
import io.jrxe.verbs.emulated.Progress;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.assertThatCode;

/** The device options' defaults, and the options of a jrxe NIC refused on a kernel device, each with its reason. */
class DeviceOptionsTest {
    private static DeviceOptions parse(String... args) {
        DeviceOptions o = new DeviceOptions();
        new CommandLine(o).parseArgs(args);
        return o;
    }

    @Test
    void defaultsAreAJrxeNicOnLoopback() throws Exception {
        DeviceOptions o = parse();
        assertThat(o.deviceName()).isEqualTo("jrxe0");
        assertThat(o.address()).isEqualTo(InetAddress.getByName("127.0.0.1"));
        assertThat(o.interfaceMtu()).isEqualTo(1500);
        assertThat(o.choice()).isEqualTo(new ProviderChoice.Emulated("jrxe0"));
    }

    @Test
    void theProgressDefaultIsTheCommandsButAnIpv6DeviceOnUdpKeepsItsNicThread() {
        DeviceOptions latency = parse("--wire", "shm", "--addr", "fd00::1");
        latency.defaultProgress(Progress.INVOKER);
        assertThat(latency.progress()).as("on shm the UDP checksum reason does not hold").isEqualTo(Progress.INVOKER);
        DeviceOptions udp = parse("--addr", "::1");
        udp.defaultProgress(Progress.INVOKER);
        assertThat(udp.progress()).isEqualTo(Progress.NIC_THREAD);
        assertThat(parse("--wire", "shm").progress()).as("a bandwidth command's").isEqualTo(Progress.NIC_THREAD);
        assertThat(parse("--wire", "shm", "--progress", "invoker").progress()).isEqualTo(Progress.INVOKER);
    }

    @Test
    void aKernelDeviceTakesNoneOfAJrxeNicsOptions() {
        assertThatCode(() -> parse("-d", "rxe0", "--timeout", "3", "--counters").checkNative("rxe0")).doesNotThrowAnyException();
        assertThatThrownBy(() -> parse("-d", "rxe0", "--addr", "10.0.0.1").checkNative("rxe0"))
                .isInstanceOf(UserError.class)
                .hasMessage("--addr applies to jrxe NICs only: rxe0 is the kernel's, with the addresses of its network "
                        + "interface (its GIDs: jrxe devinfo -v -d rxe0)");
        assertThatThrownBy(() -> parse("-d", "rxe0", "--if-mtu", "1500").checkNative("rxe0"))
                .isInstanceOf(UserError.class)
                .hasMessageStartingWith("--if-mtu applies to jrxe NICs only: rxe0 is the kernel's");
        assertThatThrownBy(() -> parse("-d", "rxe0", "--capture", "x.pcapng").checkNative("rxe0"))
                .isInstanceOf(UserError.class)
                .hasMessageStartingWith("--capture cannot capture rxe0: the kernel sends its packets, jrxe never sees them; "
                        + "run tcpdump -i IFACE -w FILE udp port 4791");
    }

    @Test
    void theOdpFaultPolicyIsRxesUnlessRnrNakIsAskedForAndNothingElse() {
        assertThat(parse().odp()).isEqualTo(OdpSettings.RXE);
        assertThat(parse("--odp-faults", "in_line").odp()).isEqualTo(OdpSettings.RXE);
        assertThat(parse("--odp-faults", "rnr_nak").odp().remoteFaults()).isEqualTo(RemoteFaultPolicy.RNR_NAK);
        assertThatThrownBy(() -> parse("--odp-faults", "later").checkValues())
                .isInstanceOf(io.jrxe.tools.BadOption.class)
                .hasMessage("--odp-faults later: in_line or rnr_nak");
        assertThatThrownBy(() -> parse("-d", "rxe0", "--odp-faults", "rnr_nak").checkNative("rxe0"))
                .isInstanceOf(UserError.class)
                .hasMessageStartingWith("--odp-faults applies to jrxe NICs only");
    }

    @Test
    void implicitOdpIsOffUnlessTheOptionOrTheCommandAsksForIt() {
        assertThat(parse().odp().implicit()).as("as kernel rxe").isFalse();
        assertThat(parse("--odp-implicit", "--odp-faults", "rnr_nak").odp())
                .isEqualTo(OdpSettings.RXE.withRemoteFaults(RemoteFaultPolicy.RNR_NAK).withImplicit(true));
        DeviceOptions forPingpong = parse();
        forPingpong.implicitOdpForCommand();
        assertThat(forPingpong.odp()).isEqualTo(OdpSettings.RXE.withImplicit(true));
        forPingpong.checkNative("rxe0"); // a command's own need is no option the kernel's device refuses
        assertThatThrownBy(() -> parse("-d", "rxe0", "--odp-implicit").checkNative("rxe0"))
                .isInstanceOf(UserError.class)
                .hasMessageStartingWith("--odp-implicit applies to jrxe NICs only");
    }

    @Test
    void faultsAreParsedBeforeAnythingOpensAndABadSpecIsOneLine() {
        assertThat(parse().faults().none()).isTrue();
        assertThat(parse("--faults", "loss=0.1,seed=4;drop,nth=2").faults().rules()).hasSize(1);
        assertThatThrownBy(() -> parse("--faults", "loss=0.1;delay").checkValues())
                .isInstanceOf(io.jrxe.tools.BadOption.class)
                .hasMessage("--faults 'loss=0.1;delay': clause 2 'delay': delay: delay needs a time, as in delay:5ms");
        assertThatThrownBy(() -> parse("-d", "rxe0", "--faults", "loss=0.1").checkNative("rxe0"))
                .isInstanceOf(UserError.class)
                .hasMessageStartingWith("--faults applies to jrxe NICs only: rxe0 sends from the kernel");
    }
}
