package io.jrxe.tools.rdmacm;

import io.jrxe.tools.common.BadOptionAnswer;
import io.jrxe.tools.common.InProcess;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** The CM tools' own option checks: each bad value is one line naming the option (exit 1), before any NIC is made. */
class CmToolOptionsTest {
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
        "rping|              |-s or -c",
        "rping|-s -c         |-s and -c",
        "rping|-s -S 22      |Invalid size 22 (valid range is 23 to 65535)",
        "rping|-s -S 65536   |-S 65536",
        "rping|-s -C -1      |Invalid count -1",
        "rping|-c            |-a: the client needs the server's address",
        "rping|-c -a 1::2::3|getaddrinfo failed - invalid hostname or IP address",
        "rping|-s -q         |-q",
        "rping|-s --provider kernel|--provider kernel",
        "rping|-s --provider native --addr 127.0.0.1|--provider native",
        "ucmatose|-c 0       |-c 0",
        "ucmatose|-C -2      |-C -2",
        "ucmatose|-f gid     |-f gid",
        "ucmatose|-P ib      |-P ib",
        "ucmatose|-m         |-m",
        "ucmatose|--timeout 0|--timeout 0",
        "udaddy|-p 0x2       |-p 0x2",
        "udaddy|-p many      |-p many",
        "udaddy|-P ipoib     |-P ipoib",
        "udaddy|-S -1        |-S -1",
    })
    void aBadValueIsOneLineNamingIt(String command, String options, String mention) {
        String[] args = (command + " " + (options == null ? "" : options)).trim().split("\\s+");
        InProcess r = InProcess.run(args);
        BadOptionAnswer.check(r, command, mention);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"rping", "ucmatose", "udaddy"})
    void helpNamesTheNicsAddressDefault(String command) {
        InProcess r = InProcess.run(command, "--help");
        assertThat(r.status()).isZero();
        assertThat(r.out()).contains("--provider", "--addr", "127.x.y.(z+1)");
    }
}
