package io.jrxe.tools.learn;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The answer a lesson expects, and which answers a student may give for it: a number in any spelling (0x1da, 474,
 * 2,097,152), or words compared without case, spaces or punctuation (RNR_RETRY_EXC_ERR, rnr retry exc err), or one
 * letter of a multiple choice with or without its text.
 */
final class Answer {
    private final String shown;
    private final Long number;
    private final Set<String> words;

    private Answer(String shown, Long number, Set<String> words) {
        this.shown = shown;
        this.number = number;
        this.words = words;
    }

    /** A value the output shows as a number, {@code shown} as it prints it. */
    static Answer number(long value, String shown) {
        return new Answer(shown, value, Set.of());
    }

    /** A word or phrase, and the other spellings that mean the same. */
    static Answer words(String shown, String... alsoAccepted) {
        Set<String> accepted = new LinkedHashSet<>();
        accepted.add(normalised(shown));
        for (String a : alsoAccepted) {
            accepted.add(normalised(a));
        }
        return new Answer(shown, null, accepted);
    }

    /** One choice of a multiple-choice question: its letter, its text, or both as the question prints them. */
    static Answer choice(char letter, String text) {
        String shown = letter + ") " + text;
        return new Answer(shown, null, Set.of(normalised(String.valueOf(letter)), normalised(text), normalised(shown)));
    }

    String shown() {
        return shown;
    }

    boolean accepts(String given) {
        if (number != null) {
            Long n = parsedNumber(given);
            return n != null && n.longValue() == number;
        }
        return words.contains(normalised(given));
    }

    /** A number as a student may write it: decimal or 0x hex, with thousands separators, "bytes" or "B" after it. */
    static Long parsedNumber(String given) {
        String s = given.strip().toLowerCase(Locale.ROOT).replaceAll("[,_\\s]", "");
        s = s.replaceFirst("(bytes|byte)$", "");
        try {
            if (s.startsWith("0x")) {
                return Long.parseUnsignedLong(s.substring(2), 16);
            }
            s = s.replaceFirst("b$", "");
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String normalised(String text) {
        return text.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
    }
}
