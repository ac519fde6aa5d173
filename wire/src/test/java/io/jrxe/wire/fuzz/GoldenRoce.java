package io.jrxe.wire.fuzz;

import io.jrxe.wire.capture.CaptureReader;
import io.jrxe.wire.capture.CapturedFrame;
import io.jrxe.wire.capture.GoldenCaptures;
import io.jrxe.wire.framing.FrameLayout;
import io.jrxe.wire.framing.FrameLayout.Kind;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Every RoCE frame of the golden captures (data path and RDMA CM), with where its layers start:
 * the seeds of the mutation fuzz tests. Loaded once per test class.
 */
public final class GoldenRoce {
    /** One captured frame: its bytes, link type and the offsets of its IP header, UDP header and BTH. */
    public record Frame(String origin, byte[] data, int linkType, int ip, int udp, int bth, int roceLength) {
        /** The UDP payload alone: BTH, the other headers, payload, pad and ICRC, as the engines get it. */
        public byte[] roce() {
            return Arrays.copyOfRange(data, bth, bth + roceLength);
        }

        /** Offsets of the IP and UDP length fields, for mutations that lie about lengths. */
        public int[] lengthFields() {
            boolean v4 = udp - ip == 20;
            return new int[] {ip + (v4 ? 2 : 4), udp + 4};
        }
    }

    private GoldenRoce() {
    }

    public static List<Frame> load() {
        FrameLayout layout = new FrameLayout();
        List<Frame> frames = new ArrayList<>();
        for (Path file : GoldenCaptures.allFiles()) {
            for (CapturedFrame f : CaptureReader.readAll(file)) {
                byte[] data = f.data();
                if (layout.parse(ByteBuffer.wrap(data), 0, data.length, f.linkType()) == Kind.ROCE) {
                    frames.add(new Frame(file.getFileName() + " frame " + f.frameNumber(), data, f.linkType(),
                            layout.ipOffset(), layout.udpOffset(), layout.bthOffset(), layout.roceLength()));
                }
            }
        }
        if (frames.size() < 1000) {
            throw new IllegalStateException("only " + frames.size() + " RoCE frames in the golden captures");
        }
        return List.copyOf(frames);
    }
}
