package io.jrxe.it.interop;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What rxe0 can do, as the native provider reads it (ibv_query_device_ex through the provider's extended ops) and as
 * rdma-core's ibv_devinfo prints it, in the lab's guest: the on-demand paging caps say the same, line for line.
 */
@ExtendWith(LabExtension.class)
class NativeDevinfoInteropTest {
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void theOdpCapsOfRxe0AreIbvDevinfos(Lab lab) throws Exception {
        Job.Result kernel = lab.guestNow("ibv_devinfo -v -d rxe0", 30);
        Job.Result jrxe = lab.guestNow(Lab.GUEST_JRXE + " devinfo -v -d rxe0", 240);
        assertThat(kernel.exitCode()).as("%s", kernel).isZero();
        assertThat(jrxe.exitCode()).as("%s", jrxe).isZero();
        List<String> expected = odpSection(kernel.output());
        assertThat(expected).as("ibv_devinfo's ODP caps: %s", kernel).isNotEmpty();
        assertThat(odpSection(jrxe.output())).as("%s", jrxe).isEqualTo(expected);
    }

    /** The lines from general_odp_caps to the last transport's caps, as printed. */
    static List<String> odpSection(String devinfo) {
        List<String> lines = devinfo.lines().toList();
        int from = lines.indexOf("\tgeneral_odp_caps:");
        int xrc = lines.indexOf("\txrc_odp_caps:");
        if (from < 0 || xrc < from) {
            return List.of();
        }
        int to = xrc + 1;
        while (to < lines.size() && lines.get(to).startsWith("\t\t\t\t\t")) {
            to++;
        }
        return lines.subList(from, to);
    }
}
