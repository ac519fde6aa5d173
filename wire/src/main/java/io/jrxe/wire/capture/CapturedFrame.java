package io.jrxe.wire.capture;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * One frame as a capture file holds it.
 *
 * @param frameNumber    position in the file, starting at 1 (as Wireshark numbers frames)
 * @param timestampNanos capture time in nanoseconds since the Unix epoch (a microsecond capture
 *                       gives multiples of 1000)
 * @param originalLength length of the frame on the wire, which is more than {@code data.length}
 *                       when the capture's snapshot length cut it
 * @param data           the captured bytes; the array belongs to the caller
 * @param linkType       the LINKTYPE_ of the capture, see {@link io.jrxe.wire.framing.LinkType}
 */
public record CapturedFrame(long frameNumber, long timestampNanos, int originalLength, byte[] data, int linkType) {

    public int capturedLength() {
        return data.length;
    }

    public boolean truncated() {
        return data.length < originalLength;
    }

    // A record compares arrays by reference; frames are values, so compare their bytes.
    @Override
    public boolean equals(Object other) {
        return other instanceof CapturedFrame that
                && frameNumber == that.frameNumber
                && timestampNanos == that.timestampNanos
                && originalLength == that.originalLength
                && linkType == that.linkType
                && Arrays.equals(data, that.data);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(frameNumber) * 31 + Arrays.hashCode(data);
    }

    @Override
    public String toString() {
        int shown = Math.min(data.length, 16);
        return "CapturedFrame[#" + frameNumber + " t=" + timestampNanos + "ns len=" + data.length + "/" + originalLength
                + " linkType=" + linkType + " data=" + HexFormat.of().formatHex(data, 0, shown)
                + (shown < data.length ? "..." : "") + "]";
    }
}
