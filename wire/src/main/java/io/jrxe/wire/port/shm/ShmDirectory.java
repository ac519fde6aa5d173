package io.jrxe.wire.port.shm;

import io.jrxe.wire.port.PeerAddress;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Where the shared-memory wire keeps its rings, one file per device: {@code ADDRESS_PORT.ring}, the device's address
 * and UDP port as its peers name it. Every process on the host that uses the same directory is on the same wire.
 * The directory is {@code -Djrxe.shm.dir}, else {@code $JRXE_SHM_DIR}, else {@code /dev/shm/jrxe} where /dev/shm
 * exists (Linux: memory, never written to a disk), else {@code jrxe-shm} in the JVM's temporary directory (macOS and
 * Windows, whose page cache holds a mapped file that is in use).
 */
public record ShmDirectory(Path path) {
    public ShmDirectory {
        if (path == null) {
            throw new IllegalArgumentException("no directory for the shared-memory wire");
        }
    }

    /** The directory the properties, the environment or the platform give. */
    public static ShmDirectory standard() {
        String chosen = System.getProperty("jrxe.shm.dir");
        if (chosen == null || chosen.isBlank()) {
            chosen = System.getenv("JRXE_SHM_DIR");
        }
        if (chosen != null && !chosen.isBlank()) {
            return new ShmDirectory(Path.of(chosen));
        }
        Path devShm = Path.of("/dev/shm");
        if (Files.isDirectory(devShm) && Files.isWritable(devShm)) {
            return new ShmDirectory(devShm.resolve("jrxe"));
        }
        return new ShmDirectory(Path.of(System.getProperty("java.io.tmpdir"), "jrxe-shm"));
    }

    /** The rings of the devices that are members of multicast {@code group} now; none when no device joined it. */
    public List<Path> members(PeerAddress group) throws IOException {
        try (ShmGroups groups = new ShmGroups(this)) {
            return groups.members(group, this);
        }
    }

    /** The ring of the device at {@code address} on UDP port {@code udpPort}; ':' (IPv6) is a '_' in a file name. */
    public Path ringOf(PeerAddress address, int udpPort) {
        return path.resolve(address.address().getHostAddress().replace(':', '_').replace('%', '_') + "_" + udpPort + ".ring");
    }
}
