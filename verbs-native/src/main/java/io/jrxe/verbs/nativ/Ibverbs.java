package io.jrxe.verbs.nativ;

import java.lang.foreign.SymbolLookup;

/**
 * libibverbs, loaded: the control verbs called by name ({@link Signatures}). The data path calls
 * through {@link DataPathCalls}.
 */
final class Ibverbs extends NativeLibrary {
    static final String DEFAULT_LIBRARY = "libibverbs.so.1";
    static final String NOT_INSTALLED = "libibverbs not installed (Debian: libibverbs1, ibverbs-providers)";

    private Ibverbs(String library, SymbolLookup lookup) {
        super(library, lookup, Signatures.EXPORTED);
    }

    /** Loads the library (a name the dynamic linker resolves, or a path); it stays loaded for the JVM's life. */
    static Ibverbs load(String library) throws LibraryMissingException {
        return new Ibverbs(library, open(library, NOT_INSTALLED));
    }
}
