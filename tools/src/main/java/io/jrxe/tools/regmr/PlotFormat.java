package io.jrxe.tools.regmr;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/** The kinds of image --plot writes, chosen by the file's extension. */
public enum PlotFormat {
    PNG, SVG;

    /** The format {@code file}'s extension names (case aside), or empty when it is neither .png nor .svg. */
    public static Optional<PlotFormat> of(Path file) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".png")) {
            return Optional.of(PNG);
        }
        if (name.endsWith(".svg")) {
            return Optional.of(SVG);
        }
        return Optional.empty();
    }
}
