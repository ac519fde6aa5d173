package io.jrxe.tools.perftest;

import io.jrxe.tools.BadOption;
import io.jrxe.tools.UserError;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The options that pick a perftest mode other than one RC QP sending one way: -c (UC, UD), -b, -l, --use-srq, and
 * --out_json with its file. {@link #apply} checks them with perftest's words and applies its dependencies
 * (force_dependecies) to what the rest of the options resolved.
 */
final class ModeOptions {
    /** perftest's UC_MAX_RX: the receives UC and UD post at most when -r was left at its default. */
    static final int UC_MAX_RX = 16000;
    /** perftest's DEF_RX_SEND. */
    static final int DEF_RX_SEND = 512;
    /** perftest's DEFAULT_JSON_FILE_NAME. */
    static final String DEFAULT_JSON_FILE = "perftest_out.json";

    @Option(names = {"-c", "--connection"}, paramLabel = "TYPE", defaultValue = "RC",
            description = "connection type: RC, UC (write and send tests) or UD (send tests) (default: ${DEFAULT-VALUE})")
    String connection;

    @Option(names = {"-b", "--bidirectional"}, description = "measure both directions at once (bandwidth tests): both sides "
            + "send, and each prints the sum of its own and the peer's numbers")
    boolean bidirectional;

    @Option(names = {"-l", "--post_list"}, paramLabel = "N", defaultValue = "1",
            description = "post N work requests in one ibv_post_send call, chained (bandwidth tests; default: ${DEFAULT-VALUE})")
    int postList;

    @Option(names = {"--use-srq", "--use_srq"}, description = "receive into a shared receive queue (send tests)")
    boolean useSrq;

    @Option(names = "--out_json", description = "also write the report to a JSON file, as perftest does (the last size's, "
            + "in perftest's own format)")
    boolean outJson;

    @Option(names = "--out_json_file", paramLabel = "FILE", description = "the file of --out_json (default: " + DEFAULT_JSON_FILE
            + " in the working directory)")
    String outJsonFile;

    /** -c's value, checked against the verb as perftest's change_conn_type does. */
    ConnectionType connectionType(Verb verb) {
        ConnectionType type;
        try {
            type = ConnectionType.valueOf(connection);
        } catch (IllegalArgumentException e) {
            if (List.of("XRC", "DC", "SRD", "RawEth").contains(connection)) {
                throw new BadOption("-c " + connection + ": jrxe's perftest runs RC, UC and UD connections");
            }
            throw new BadOption("-c " + connection + ": Invalid Connection type. Please choose from {RC,UC,UD,XRC,DC,SRD}");
        }
        if (type == ConnectionType.UC && verb.readLike()) {
            throw new BadOption("-c UC: UC connection not possible in READ/ATOMIC verbs");
        }
        if (type == ConnectionType.UD && verb != Verb.SEND) {
            throw new BadOption("-c UD: UD connection only possible in SEND verb");
        }
        return type;
    }

    /** The modes themselves, before the other options resolve (some of them depend on -b). */
    void early(PerftestSettings s, Function<String, RuntimeException> bad) {
        s.connection = connectionType(s.verb);
        if (bidirectional && !s.bw) {
            throw bad.apply("-b/--bidirectional: Bidirectional is only available in BW test");
        }
        s.duplex = bidirectional;
        if (useSrq && s.verb != Verb.SEND) {
            throw new BadOption("--use-srq: Using SRQ only available in SEND tests");
        }
        s.useSrq = useSrq;
        if (postList < 1) {
            throw bad.apply("-l/--post_list " + postList + ": a post list has at least 1 work request");
        }
        s.postList = postList;
        if (outJsonFile != null && !outJson) {
            throw bad.apply("--out_json_file: the file is for --out_json");
        }
        s.outJsonFile = outJson ? (outJsonFile != null ? outJsonFile : DEFAULT_JSON_FILE) : null;
    }

    /**
     * UC and UD lose what finds no receive posted, so by default they post one receive per message (up to
     * {@link #UC_MAX_RX}): perftest replaces the default depth (512) once the depths are capped to the iterations.
     */
    static void unreliableDepth(PerftestSettings s) {
        if (s.durationSeconds == 0 && s.connection != ConnectionType.RC && s.rxDepth == DEF_RX_SEND) {
            s.rxDepth = (int) Math.min(s.iters, UC_MAX_RX);
        }
    }

    /**
     * check_mtu for UD: a datagram is at most the path MTU. A size that was not asked for (the default, or -a) is
     * lowered to it, as perftest says on stderr; a size asked for with -s is an error.
     */
    static void datagramSize(PerftestSettings s, PrintWriter err) {
        if (s.connection != ConnectionType.UD || s.size <= s.mtu.bytes()) {
            return;
        }
        if (s.all || !s.sizeRequested) {
            err.println(" Max msg size in UD is MTU " + s.mtu.bytes());
            err.println(" Changing to this MTU");
            err.flush();
            s.size = s.mtu.bytes();
            s.maxSize = s.size;
        } else {
            throw new UserError("Max message size in UD cannot be greater than MTU (-s " + s.size + ", MTU " + s.mtu.bytes() + ")");
        }
    }

    /**
     * What the modes require of the resolved depths and CQ moderation, in force_dependecies' order: the SRQ's
     * depth and the post list's CQ moderation. {@code cqModGiven} is whether -Q was given; notices go before the
     * header, as perftest prints them.
     */
    static void late(PerftestSettings s, boolean cqModGiven, List<String> notices, Function<String, RuntimeException> bad) {
        if (s.duplex && s.events && s.verb == Verb.SEND) {
            throw new BadOption("-b with -e: jrxe's bidirectional send test polls its two CQs; leave out -e");
        }
        if (s.useSrq && s.qps > s.rxDepth) {
            throw new BadOption(String.format(Locale.ROOT, "--use-srq: Using SRQ depth should be greater than number of QPs "
                    + "(-r %d, -q %d)", s.rxDepth, s.qps));
        }
        if (s.postList == 1) {
            return;
        }
        if (!s.bw) {
            throw bad.apply("-l/--post_list: Post list is supported in BW tests only");
        }
        if (s.durationSeconds == 0 && s.iters % s.postList != 0) {
            throw bad.apply("-l/--post_list " + s.postList + ": Number of iterations must be a multiple of post list size");
        }
        if (!cqModGiven) {
            s.cqMod = s.postList;
            notices.add(PerftestFormat.RESULT_LINE);
            notices.add("Post List requested - CQ moderation will be the size of the post list");
        } else if (s.postList % s.cqMod != 0) {
            throw bad.apply("-l/--post_list " + s.postList + ": Post list size must be a multiple of CQ moderation");
        }
        if (s.postList > s.txDepth) {
            throw bad.apply("-l/--post_list " + s.postList + ": a post list must fit the send queue (-t " + s.txDepth + ")");
        }
    }
}
