package io.jrxe.verbs.nativ.abi;

import io.jrxe.verbs.Access;
import io.jrxe.verbs.OdpCapabilities;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The native provider hands {@link Access} masks to ibv_reg_mr as they are, so each bit must be the one verbs.h
 * gives the same right: gcc prints enum ibv_access_flags from the installed header, ON_DEMAND (the pingpong's and
 * perftest's --odp) among them. The FLUSH bits are left out: they are enum members, which the preprocessor cannot
 * test for, and an older verbs.h (rdma-core 44's) has none.
 */
class AccessFlagsTest {
    @Test
    void everyAccessBitIsLibibverbsOwn() {
        CCompiler.assumeAvailable(Path.of("/usr/include/infiniband/verbs.h"), "libibverbs-dev");
        Map<String, Integer> jrxe = new LinkedHashMap<>();
        jrxe.put("IBV_ACCESS_LOCAL_WRITE", Access.LOCAL_WRITE);
        jrxe.put("IBV_ACCESS_REMOTE_WRITE", Access.REMOTE_WRITE);
        jrxe.put("IBV_ACCESS_REMOTE_READ", Access.REMOTE_READ);
        jrxe.put("IBV_ACCESS_REMOTE_ATOMIC", Access.REMOTE_ATOMIC);
        jrxe.put("IBV_ACCESS_MW_BIND", Access.MW_BIND);
        jrxe.put("IBV_ACCESS_ZERO_BASED", Access.ZERO_BASED);
        jrxe.put("IBV_ACCESS_ON_DEMAND", Access.ON_DEMAND);
        assertThat(jrxe).isEqualTo(header(jrxe));
        assertThat(Access.ON_DEMAND).isEqualTo(1 << 6);
    }

    /** The ODP caps a native device reports are read with these bits (FLUSH and ATOMIC_WRITE: rdma-core 58 on). */
    @Test
    void everyOdpCapBitIsLibibverbsOwn() {
        CCompiler.assumeAvailable(Path.of("/usr/include/infiniband/verbs.h"), "libibverbs-dev");
        Map<String, Integer> jrxe = new LinkedHashMap<>();
        jrxe.put("IBV_ODP_SUPPORT", (int) OdpCapabilities.SUPPORT);
        jrxe.put("IBV_ODP_SUPPORT_IMPLICIT", (int) OdpCapabilities.SUPPORT_IMPLICIT);
        jrxe.put("IBV_ODP_SUPPORT_SEND", OdpCapabilities.SEND);
        jrxe.put("IBV_ODP_SUPPORT_RECV", OdpCapabilities.RECV);
        jrxe.put("IBV_ODP_SUPPORT_WRITE", OdpCapabilities.WRITE);
        jrxe.put("IBV_ODP_SUPPORT_READ", OdpCapabilities.READ);
        jrxe.put("IBV_ODP_SUPPORT_ATOMIC", OdpCapabilities.ATOMIC);
        jrxe.put("IBV_ODP_SUPPORT_SRQ_RECV", OdpCapabilities.SRQ_RECV);
        assertThat(jrxe).isEqualTo(header(jrxe));
    }

    /** The values the installed verbs.h gives these names, printed by gcc. */
    private static Map<String, Integer> header(Map<String, Integer> names) {
        StringBuilder c = new StringBuilder("#include <stdio.h>\n#include <infiniband/verbs.h>\nint main(void) {\n");
        for (String name : names.keySet()) {
            c.append("    printf(\"").append(name).append(" %d\\n\", (int) ").append(name).append(");\n");
        }
        c.append("    return 0;\n}\n");
        Map<String, Integer> header = new LinkedHashMap<>();
        for (String line : CCompiler.run(c.toString()).strip().split("\n")) {
            String[] f = line.split(" ");
            header.put(f[0], Integer.parseInt(f[1]));
        }
        return header;
    }
}
