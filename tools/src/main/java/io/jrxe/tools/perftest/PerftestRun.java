package io.jrxe.tools.perftest;

import io.jrxe.verbs.GidEntry;
import io.jrxe.tools.UserError;
import io.jrxe.tools.common.LocalDevice;
import io.jrxe.verbs.VerbsException;

import java.io.PrintWriter;

/**
 * One perftest run on a connected jrxe device: the header, the handshakes in the order of the test's C
 * program, then the measuring loops ({@link BandwidthTest}, {@link LatencyTest}) on the {@link PerftestResources}
 * it made.
 */
final class PerftestRun implements AutoCloseable {
    private final PerftestSettings s;
    private final PerftestResources res;
    private final PerftestConnection conn;
    /** With -R: where the test's QPs connect through the CM; null when they connect with the exchanged keys. */
    private final CmRoute route;
    private CmTestQps cmQps;
    private final PrintWriter out;
    private final JsonReport json;
    private final PerftestJsonFile jsonFile;

    PerftestRun(PerftestSettings s, LocalDevice dev, GidEntry gid, PerftestConnection conn, CmRoute route, PrintWriter out, JsonReport json,
                PerftestJsonFile jsonFile) {
        this.s = s;
        this.res = new PerftestResources(s, dev, gid);
        this.conn = conn;
        this.route = route;
        this.out = out;
        this.json = json;
        this.jsonFile = jsonFile;
        json.remoteVersion(conn.remoteVersion());
    }

    void run() throws VerbsException {
        if (route == null) {
            res.allocate();
        } else {
            // create_rdma_cm_connection: between two syncs (with perftest's still zeroed keys), the CM connects the QPs
            PerftestDest zero = new PerftestDest(0, 0, 0, 0, 0, 0, new byte[16], 0);
            cmQps = CmTestQps.open(s, route.cm(), route.address());
            conn.handshake(zero, "the sync before the rdma_cm connection");
            cmQps.connect(s, res, route.source(), route.address());
            conn.handshake(zero, "the sync after the rdma_cm connection");
        }
        PerftestFormat.header(out, s);
        PerftestDest[] mine = res.mine;
        PerftestDest[] remote = res.remote;
        boolean sendLat = s.verb == Verb.SEND && !s.bw;
        boolean latTwoSided = !s.bw && !sendLat;
        if (latTwoSided) {
            conn.handshake(mine[0], "its QP's keys");
        }
        for (int i = 0; i < s.qps; i++) {
            remote[i] = conn.handshake(mine[i], "its QP's keys");
        }
        if (route == null) {
            if (GidEntry.isIpv4Mapped(mine[0].gid()) != GidEntry.isIpv4Mapped(remote[0].gid())) {
                throw new UserError("Found Incompatibility issue with GID types. Please Try to use a different IP version.");
            }
            for (int i = 0; i < s.qps; i++) {
                res.connect(i, mine[i], remote[i]);
            }
        }
        if (s.verb == Verb.SEND) {
            conn.handshake(mine[0], "the sync after connecting");
        }
        for (PerftestDest d : mine) {
            PerftestFormat.address(out, "local", d, s.verb);
            json.local(d);
        }
        for (int i = 0; i < s.qps; i++) {
            remote[i] = conn.handshake(mine[i], "its QP's keys");
            PerftestFormat.address(out, "remote", remote[i], s.verb);
            json.remote(remote[i]);
        }
        MeasuringTest test = s.bw ? new BandwidthTest(s, res, conn, out, json, jsonFile)
                : new LatencyTest(s, res, conn, out, json, jsonFile);
        test.warmLoop(); // before a handshake (send_lat's is in its loop), so that the peer does not wait for it in its timing
        if (s.verb != Verb.SEND) {
            conn.handshake(mine[0], "the sync after RTR");
        }
        out.flush();
        if (s.events) {
            res.sendCq.requestNotify(false);
            res.recvCq.requestNotify(false);
        }
        test.run();
        out.flush();
    }

    @Override
    public void close() {
        if (cmQps != null) {
            cmQps.disconnect();
        }
        res.close();
        if (cmQps != null) {
            cmQps.close();
        }
    }
}
