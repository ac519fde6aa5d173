package io.jrxe.tools.perftest;

import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.VerbsException;

import java.io.PrintWriter;
import java.util.List;

/** What the bandwidth and latency tests share: the settings, the device's resources, the peer and the output. */
abstract class MeasuringTest {
    final PerftestSettings s;
    final PerftestResources res;
    final PerftestConnection conn;
    final PrintWriter out;
    final JsonReport json;
    final PerftestJsonFile jsonFile;
    // The resources' parts the loops use, in fields of their own: no extra indirection per work request.
    final List<Qp> qps;
    final WorkCompletion[] wcs;
    final PerftestDest[] mine;

    MeasuringTest(PerftestSettings s, PerftestResources res, PerftestConnection conn, PrintWriter out, JsonReport json,
                  PerftestJsonFile jsonFile) {
        this.s = s;
        this.res = res;
        this.conn = conn;
        this.out = out;
        this.json = json;
        this.jsonFile = jsonFile;
        this.qps = res.qps;
        this.wcs = res.wcs;
        this.mine = res.mine;
    }

    /**
     * Runs, before the last handshake ahead of the test, what the test's loop does per message that needs no peer,
     * until the JIT has compiled it. Nothing by default.
     */
    void warmLoop() {
    }

    /** Runs the test for each size and prints its table, on the connected QPs. */
    abstract void run() throws VerbsException;
}
