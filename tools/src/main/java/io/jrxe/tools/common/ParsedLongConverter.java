package io.jrxe.tools.common;

import picocli.CommandLine;

/**
 * Lets picocli read an option whose value a parser turns into a number (a size, a rate, a duration): the parser's
 * {@link IllegalArgumentException} becomes a bad option (exit 1), its message naming what is wrong.
 */
public abstract class ParsedLongConverter implements CommandLine.ITypeConverter<Long> {
    /** The number {@code text} stands for; throws IllegalArgumentException saying what is expected. */
    protected abstract long parse(String text);

    @Override
    public final Long convert(String value) {
        try {
            return parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
