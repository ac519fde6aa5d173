package io.jrxe.it.interop;

import io.jrxe.it.interop.Pairings.Gids;
import io.jrxe.it.interop.Pairings.Pair;
import io.jrxe.it.interop.Pairings.Server;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.jrxe.it.interop.Pairings.assertPingpong;
import static io.jrxe.it.interop.Pairings.jrxeServes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Path MTU 4096 against kernel rxe: the guest's eth0, the lab's tap and bridge at MTU 4200 (rxe0's
 * active MTU follows eth0's: 4096), jrxe told its interface's MTU with --if-mtu 4200. ib_write_bw
 * both ways (both sides print the MTU they agreed on) and an RC pingpong whose capture shows full
 * 4096-byte payloads from both sides. Everything goes back to 1500 afterwards.
 */
@ExtendWith(LabExtension.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class KernelRxeMtu4096Test {
    private static final String BIG = "4200";
    private static final String NORMAL = "1500";
    private static final int ITERATIONS = 20;

    @Test
    void writeBandwidthBothWaysAndPingpongAtMtu4096(Lab lab, @TempDir Path dir) throws Exception {
        try {
            setMtus(lab, BIG);
            Job.Result rxe0 = lab.guestNow("ibv_devinfo -d rxe0", 20);
            assertThat(rxe0.output()).as("%s", rxe0).containsPattern("active_mtu:\\s+4096 \\(5\\)");
            for (Server server : Server.values()) {
                Pair p = Pairings.bandwidth(lab, "write", server, 18680 + server.ordinal(), Gids.IPV6, 100, "", "--if-mtu", BIG);
                for (Job.Result r : List.of(p.kernel(), p.jrxe())) {
                    assertThat(r.output()).as("%s", r).containsPattern("Mtu\\s+:\\s+4096\\[B]");
                }
            }
            Path capture = dir.resolve("mtu4096.pcapng");
            Pair p = jrxeServes(lab, 18682, "ibv_rc_pingpong -d rxe0 -g " + lab.guestGid6() + " -m 4096 -s 8192 -n " + ITERATIONS + " -c",
                    "pingpong", "--addr", Lab.HOST6, "--if-mtu", BIG, "-m", "4096", "-s", "8192", "-n", String.valueOf(ITERATIONS), "-c",
                    "--capture", capture.toString());
            assertPingpong(p, ITERATIONS, Gids.IPV6);
            Job.Result decoded = Lab.jrxeHere("decode", "--verify-icrc", "--json", capture.toString());
            assertThat(decoded.exitCode()).as("%s", decoded).isZero();
            for (String source : List.of(Lab.HOST6, Lab.GUEST6)) {
                // each 8192-byte message is a SEND_FIRST and a SEND_LAST of 4096 bytes each (at MTU 1024 it would be eight packets)
                assertThat(decoded.output().lines()
                        .filter(l -> l.contains("\"src\":\"" + source + "\"") && l.contains("\"payload_length\":4096,")))
                        .as("4096-byte payloads from %s in jrxe's capture: %s", source, decoded.output())
                        .hasSizeGreaterThanOrEqualTo(2 * ITERATIONS);
            }
        } finally {
            setMtus(lab, NORMAL);
        }
    }

    /** The guest's eth0 (and so rxe0), the tap and the bridge: the whole path. */
    private static void setMtus(Lab lab, String mtu) throws InterruptedException {
        List<Job.Result> all = List.of(lab.guestNow("ip link set eth0 mtu " + mtu, 20),
                lab.inNamespaceNow("ip", "link", "set", "jrxe-tap0", "mtu", mtu), lab.inNamespaceNow("ip", "link", "set", "jrxe-br0", "mtu", mtu));
        assertThat(all).as("%s", all).allMatch(r -> r.exitCode() == 0);
    }
}
