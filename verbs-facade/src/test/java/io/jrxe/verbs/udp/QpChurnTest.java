package io.jrxe.verbs.udp;

import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpConnect;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpPeer;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.verbs.emulated.Progress;
import io.jrxe.verbs.facade.Verbs;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * QPs created, connected and destroyed over and over on real UDP keep no socket and no verbs object behind: each
 * connected QP sends from a UDP source port of its own, and that port's socket closes with its last QP.
 */
class QpChurnTest {
    private static final Path OPEN_FILES = Path.of("/proc/self/fd");
    private static final int WARM_UP = 50;
    private static final int CYCLES = 400;

    @ParameterizedTest
    @EnumSource(Progress.class)
    void connectingAndDestroyingQpsLeavesNoSocketOpen(Progress progress) throws Exception {
        Assumptions.assumeTrue(Files.isDirectory(OPEN_FILES), "skipped: no /proc/self/fd to count open files on this OS");
        int n = progress.ordinal();
        EmulatedDevice a = Verbs.emulated().createUdp("churn-a" + n, InetAddress.getByName("127.0.38." + (2 * n + 1)), progress);
        EmulatedDevice b = Verbs.emulated().createUdp("churn-b" + n, InetAddress.getByName("127.0.38." + (2 * n + 2)), progress);
        try {
            Context ca = a.open();
            Context cb = b.open();
            Pd pa = ca.allocPd();
            Pd pb = cb.allocPd();
            Cq cqa = ca.createCq(4, null);
            Cq cqb = cb.createCq(4, null);
            long afterWarmUp = 0;
            for (int i = 0; i < CYCLES; i++) {
                if (i == WARM_UP) {
                    afterWarmUp = openFiles();
                }
                QpCapabilities caps = new QpCapabilities(4, 4, 1, 1, 0);
                Qp qa = pa.createQp(new QpInitAttributes(QpType.RC, cqa, cqa, null, caps, false));
                Qp qb = pb.createQp(new QpInitAttributes(QpType.RC, cqb, cqb, null, caps, false));
                QpConnect.to(new QpPeer(qb.qpNum(), 0, cb.queryGid(1, 1).gid())).apply(qa);
                QpConnect.to(new QpPeer(qa.qpNum(), 0, ca.queryGid(1, 1).gid())).apply(qb);
                qa.close();
                qb.close();
            }
            // Each cycle's QPs sent from a source port of their own (the port follows both QP numbers): without the
            // release, every cycle would leave one or two sockets open.
            assertThat(openFiles()).as("open files after %d cycles", CYCLES).isLessThanOrEqualTo(afterWarmUp + 4);
        } finally {
            Verbs.emulated().remove(a);
            Verbs.emulated().remove(b);
        }
    }

    private static long openFiles() throws IOException {
        try (Stream<Path> s = Files.list(OPEN_FILES)) {
            return s.count();
        }
    }
}
