package io.jrxe.wire.capture;

import java.nio.file.Path;

/**
 * Reads a capture the way a jrxe tool does and prints either the frame count or the error's
 * message. Run in a child JVM by {@link NativeLibraryFailureTest}, whose failures (a missing
 * libpcap, denied native access) can only happen once per JVM.
 */
public final class OpenCaptureMain {
    private OpenCaptureMain() {
    }

    public static void main(String[] args) {
        try {
            System.out.println("frames: " + CaptureReader.readAll(Path.of(args[0])).size());
        } catch (CaptureException e) {
            System.out.println(e.getMessage());
        }
    }
}
