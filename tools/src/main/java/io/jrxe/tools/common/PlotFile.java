package io.jrxe.tools.common;

import io.jrxe.tools.UserError;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writing a command's --plot file, with the two ways it fails said in one line: a file that cannot be written, and a
 * machine without fonts, where AWT throws an Error ("Fontconfig head is null") that would otherwise end the command
 * with a stack trace after its report was already printed.
 */
public final class PlotFile {
    /** Draws the chart into the file. */
    @FunctionalInterface
    public interface Drawing {
        void draw() throws IOException;
    }

    private PlotFile() {
    }

    public static void write(Path plot, Drawing drawing) {
        try {
            drawing.draw();
        } catch (IOException e) {
            throw new UserError("--plot " + plot + ": cannot write it: " + FileErrors.why(e), e);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Error | RuntimeException e) {
            try {
                Files.deleteIfExists(plot); // opened before drawing: an empty file would pass for a plot
            } catch (IOException ignored) {
                // the message below is what matters; a half-written file is named in it
            }
            throw new UserError("--plot " + plot + ": Java could not draw on this machine (" + e.getMessage()
                    + "); it needs fonts, e.g. Debian's fonts-dejavu-core, and the report above is complete without it", e);
        }
    }
}
