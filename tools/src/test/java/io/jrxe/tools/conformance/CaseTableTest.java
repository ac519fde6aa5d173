package io.jrxe.tools.conformance;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The table's packets must reach a target behind an ordinary Ethernet link (the lab's guest has MTU 1500): a larger
 * one is refused by the tester's kernel (raw sockets do not fragment), and the case would measure nothing. LEN-05 once
 * sent 2048 bytes of payload and saw kernel rxe's "silence" for a packet that never left.
 */
class CaseTableTest {
    private static final int ETHERNET_MTU = 1500;

    @Test
    void everyPacketOfEveryCaseFitsA1500ByteEthernetLink() {
        CaseContext ctx = new CaseContext(0x100, ConformanceCase.DEFAULT_START_PSN, 0x200, 0x300, 0x7f00_0000_0000L,
                0x1234, new TargetKeys(1, 2, 3, 4, 5, 6), 0x400, CaseTable.MTU);
        List<String> tooLarge = new ArrayList<>();
        int largest = 0;
        for (ConformanceCase c : CaseTable.all()) {
            for (ConformanceCase.Step step : c.steps()) {
                int ipLength = TesterPort.IP_UDP_HEADERS + step.packet().craft(ctx).length;
                largest = Math.max(largest, ipLength);
                if (ipLength > ETHERNET_MTU) {
                    tooLarge.add(c.id() + " (" + ipLength + " bytes)");
                }
            }
        }
        assertThat(tooLarge).as("IPv4 packets over %d bytes", ETHERNET_MTU).isEmpty();
        assertThat(largest).as("the largest packet, a payload of MTU + 4 with its headers").isGreaterThan(CaseTable.MTU + 4);
    }

    @Test
    void lengthCasesStillSendMoreThanThePathMtu() {
        ConformanceCase len05 = CaseTable.matching("LEN-05").getFirst();
        CaseContext ctx = new CaseContext(0x100, len05.startPsn(), 0x200, 0x300, 0, 1, new TargetKeys(1, 2, 3, 4, 5, 6),
                -1, CaseTable.MTU);
        byte[] packet = len05.steps().getFirst().packet().craft(ctx);
        int bthRethIcrc = 12 + 16 + 4;
        assertThat(packet.length - bthRethIcrc).as("LEN-05's payload").isGreaterThan(CaseTable.MTU);
    }
}
