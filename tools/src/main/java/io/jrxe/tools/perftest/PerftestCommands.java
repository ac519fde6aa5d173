package io.jrxe.tools.perftest;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The eight perftest programs as jrxe commands: each is a verb and a kind of measurement. */
public final class PerftestCommands {
    private PerftestCommands() {
    }

    /** `-V`: the version perftest prints, which is also the one jrxe tells its peers. */
    public static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"Version: " + PerftestConnection.VERSION};
        }
    }

    static final String FOOTER = "%nWithout SERVERNAME the command is the server and waits for a client; the client "
            + "names the server. Both sides speak perftest's TCP exchange, so either may be the real ib_* tool.";

    @Command(name = "write-bw", mixinStandardHelpOptions = true, versionProvider = Version.class, footer = FOOTER,
            description = "ib_write_bw on a jrxe NIC or a kernel device (-d): RDMA write bandwidth.")
    public static final class WriteBw extends PerftestCommand {
        @Override Verb verb() { return Verb.WRITE; }
        @Override boolean bandwidth() { return true; }
    }

    @Command(name = "write-lat", mixinStandardHelpOptions = true, versionProvider = Version.class, footer = FOOTER,
            description = "ib_write_lat on a jrxe NIC or a kernel device (-d): RDMA write latency, polling the written memory.")
    public static final class WriteLat extends PerftestCommand {
        @Override Verb verb() { return Verb.WRITE; }
        @Override boolean bandwidth() { return false; }
    }

    @Command(name = "read-bw", mixinStandardHelpOptions = true, versionProvider = Version.class, footer = FOOTER,
            description = "ib_read_bw on a jrxe NIC or a kernel device (-d): RDMA read bandwidth.")
    public static final class ReadBw extends PerftestCommand {
        @Override Verb verb() { return Verb.READ; }
        @Override boolean bandwidth() { return true; }
    }

    @Command(name = "read-lat", mixinStandardHelpOptions = true, versionProvider = Version.class, footer = FOOTER,
            description = "ib_read_lat on a jrxe NIC or a kernel device (-d): RDMA read latency.")
    public static final class ReadLat extends PerftestCommand {
        @Override Verb verb() { return Verb.READ; }
        @Override boolean bandwidth() { return false; }
    }

    @Command(name = "send-bw", mixinStandardHelpOptions = true, versionProvider = Version.class, footer = FOOTER,
            description = "ib_send_bw on a jrxe NIC or a kernel device (-d): SEND bandwidth; the server receives and reports too.")
    public static final class SendBw extends PerftestCommand {
        @Override Verb verb() { return Verb.SEND; }
        @Override boolean bandwidth() { return true; }
    }

    @Command(name = "send-lat", mixinStandardHelpOptions = true, versionProvider = Version.class, footer = FOOTER,
            description = "ib_send_lat on a jrxe NIC or a kernel device (-d): SEND latency, ping-pong.")
    public static final class SendLat extends PerftestCommand {
        @Override Verb verb() { return Verb.SEND; }
        @Override boolean bandwidth() { return false; }
    }

    /** The atomic tests' -A. */
    abstract static class Atomic extends PerftestCommand {
        @Option(names = {"-A", "--atomic_type"}, paramLabel = "TYPE", defaultValue = "FETCH_AND_ADD",
                description = "CMP_AND_SWAP or FETCH_AND_ADD (default: ${DEFAULT-VALUE})")
        String atomic;

        @Override
        Verb verb() {
            return Verb.ATOMIC;
        }

        @Override
        String atomicType() {
            if (!atomic.equals("CMP_AND_SWAP") && !atomic.equals("FETCH_AND_ADD")) {
                throw bad("-A/--atomic_type " + atomic + ": CMP_AND_SWAP or FETCH_AND_ADD");
            }
            return atomic;
        }
    }

    @Command(name = "atomic-bw", mixinStandardHelpOptions = true, versionProvider = Version.class, footer = FOOTER,
            description = "ib_atomic_bw on a jrxe NIC or a kernel device (-d): atomic operation bandwidth.")
    public static final class AtomicBw extends Atomic {
        @Override boolean bandwidth() { return true; }
    }

    @Command(name = "atomic-lat", mixinStandardHelpOptions = true, versionProvider = Version.class, footer = FOOTER,
            description = "ib_atomic_lat on a jrxe NIC or a kernel device (-d): atomic operation latency.")
    public static final class AtomicLat extends Atomic {
        @Override boolean bandwidth() { return false; }
    }
}
