package io.jrxe.it.interop;

import io.jrxe.it.interop.KernelRxePerftestRdmaCmTest.Family;
import io.jrxe.it.interop.KernelRxePerftestRdmaCmTest.Test;
import io.jrxe.it.interop.Pairings.Server;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * perftest's -R over IPv6, against every lab release whose perftest can (a subclass per release): perftest 25.01
 * (Debian 13 and unstable) gives its connection manager AF_INET6 addresses with
 * --ipv6-addr (4.5's is AF_INET only, so {@link KernelRxePerftestRdmaCmTest} pairs over IPv4 alone). write-bw and
 * send-bw, each side serving, checked as there: both headers say the QPs and the exchange went through rdma_cm,
 * both print their result row, and each saw the other's IPv6 GID.
 */
@ExtendWith(LabExtension.class)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
abstract class KernelRxePerftestRdmaCmIpv6 {
    private static final List<Test> TESTS = KernelRxePerftestRdmaCmTest.TESTS.stream()
            .filter(t -> t.command().equals("write-bw") || t.command().equals("send-bw")).toList();

    static Stream<Arguments> pairings() {
        return TESTS.stream().flatMap(t -> Stream.of(Server.values()).map(server -> Arguments.of(t, server)));
    }

    @ParameterizedTest(name = "{0}, {1} serves, IPv6")
    @MethodSource("pairings")
    void pairsOverTheConnectionManagerOverIpv6(Test t, Server server, Lab lab) throws Exception {
        KernelRxePerftestRdmaCmTest.pairAndCheck(lab, t, server, 18740 + 2 * TESTS.indexOf(t) + server.ordinal(), Family.IPV6);
    }
}
