package io.jrxe.wire.port.shm;

import io.jrxe.wire.port.PeerAddress;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.channels.FileChannel.MapMode;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Multicast membership on the shared-memory wire, kept in the wire's directory as IGMP keeps it on a network: a group
 * is a folder {@code groups/GROUP/}, and a device that joined it has an empty file there named as its ring. A sender
 * writes a group's packet into the ring of every member. One counter, {@code groups/generation}, mapped by every
 * port, grows on every join and leave, so that a sender lists a group's folder again only when membership changed
 * (one memory read per packet, no system call) and never misses a device that joined before it sent. Nothing is made
 * in the directory until a device joins a group or sends to one.
 */
final class ShmGroups implements AutoCloseable {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final String MEMBER_SUFFIX = ".ring";

    private final Path folder;
    private final Arena arena = Arena.ofShared();
    /** The mapped counter, once this port joined or sent to a group; null before. */
    private volatile MemorySegment generation;

    /** The membership of the wire in {@code directory}. */
    ShmGroups(ShmDirectory directory) {
        this.folder = directory.path().resolve("groups");
    }

    /** The counter, mapped the first time it is needed; the folder and the file are made if they are not there. */
    private MemorySegment counter() throws IOException {
        MemorySegment g = generation;
        return g != null ? g : map();
    }

    private synchronized MemorySegment map() throws IOException {
        if (generation == null) {
            Files.createDirectories(folder);
            try (FileChannel channel = FileChannel.open(folder.resolve("generation"), StandardOpenOption.CREATE,
                    StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                // Mapping past the end extends the file to 8 bytes of zeros; a file already that long keeps its count.
                generation = channel.map(MapMode.READ_WRITE, 0, Long.BYTES, arena);
            }
        }
        return generation;
    }

    /** The membership's current generation: a change means some device joined or left some group. */
    long generation() throws IOException {
        return (long) LONG.getAcquire(counter(), 0L);
    }

    /** Makes {@code ring} (a device's ring file) a member of {@code group}, then tells every sender. */
    void join(PeerAddress group, Path ring) throws IOException {
        MemorySegment counter = counter();
        Path groupFolder = folder.resolve(name(group));
        Files.createDirectories(groupFolder);
        Path member = groupFolder.resolve(ring.getFileName().toString());
        if (!Files.exists(member)) {
            Files.createFile(member);
        }
        LONG.getAndAdd(counter, 0L, 1L);
    }

    /** Takes {@code ring} out of {@code group}, then tells every sender. */
    void leave(PeerAddress group, Path ring) throws IOException {
        Files.deleteIfExists(folder.resolve(name(group)).resolve(ring.getFileName().toString()));
        LONG.getAndAdd(counter(), 0L, 1L);
    }

    /**
     * Takes {@code ring} out of every group: a device that takes over the ring of one that died must not inherit its
     * groups, and a closing device leaves them all. Makes nothing where no device ever used a group.
     */
    void leaveAll(Path ring) throws IOException {
        if (!Files.isDirectory(folder)) {
            return;
        }
        String member = ring.getFileName().toString();
        boolean any = false;
        try (DirectoryStream<Path> groups = Files.newDirectoryStream(folder, Files::isDirectory)) {
            for (Path g : groups) {
                any |= Files.deleteIfExists(g.resolve(member));
            }
        }
        if (any) {
            LONG.getAndAdd(counter(), 0L, 1L);
        }
    }

    /** The ring files of the devices in {@code group} now, in {@code wire}; none when no device joined it. */
    List<Path> members(PeerAddress group, ShmDirectory wire) throws IOException {
        List<Path> rings = new ArrayList<>();
        try (DirectoryStream<Path> members = Files.newDirectoryStream(folder.resolve(name(group)), "*" + MEMBER_SUFFIX)) {
            for (Path m : members) {
                rings.add(wire.path().resolve(m.getFileName().toString()));
            }
        } catch (NoSuchFileException none) {
            return List.of();
        }
        return rings;
    }

    private static String name(PeerAddress group) {
        return group.address().getHostAddress().replace(':', '_').replace('%', '_');
    }

    @Override
    public void close() {
        arena.close();
    }
}
