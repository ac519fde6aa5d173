package io.jrxe.rnic.device;

import io.jrxe.rnic.Nics;
import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicExecutor;
import io.jrxe.rnic.NicResources;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The P_Key table of a RoCE port, as rxe has it: one entry, the default full-member key 0xFFFF. */
class PkeyTableTest {
    @Test
    void theTableIsJustTheDefaultKey() throws Exception {
        NicResources rnic = Nics.resources(DeviceConfig.of("jrxe0", InetAddress.getByName("127.0.0.1")), NicExecutor.INLINE);
        assertThat(rnic.port().pkeyTableLength()).isEqualTo(1);
        assertThat(rnic.port().pkey(0)).isEqualTo(0xFFFF).isEqualTo(Port.DEFAULT_PKEY);
        assertThatThrownBy(() -> rnic.port().pkey(1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("P_Key index 1 is out of range: the table holds 1");
        assertThatThrownBy(() -> rnic.port().pkey(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
