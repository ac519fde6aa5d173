package io.jrxe.tools.common;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Why a file could not be written, in words: the JDK's exceptions for a missing directory or a refused permission
 * carry only the path as their message, which reads as if the path itself were the complaint.
 */
public final class FileErrors {
    private FileErrors() {
    }

    /** "no such directory: /a/b", "permission denied: /a/b/c", else the exception's own message. */
    public static String why(IOException e) {
        if (e instanceof NoSuchFileException missing && missing.getFile() != null) {
            Path parent = Path.of(missing.getFile()).toAbsolutePath().getParent();
            return "no such directory: " + (parent == null ? missing.getFile() : parent);
        }
        if (e instanceof AccessDeniedException denied && denied.getFile() != null) {
            return "permission denied: " + denied.getFile();
        }
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            return fs.getReason() + ": " + fs.getFile();
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    /** The IOException somewhere in {@code e}'s causes, or null. */
    public static IOException ioCause(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof IOException io) {
                return io;
            }
        }
        return null;
    }
}
