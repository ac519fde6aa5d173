package io.jrxe.tools.learn;

import java.util.Map;

/**
 * What a lesson's run gave: the answer to its question, and the values its explanation quotes (each replaces
 * {@code {name}} in the lesson's answer text, as {@code {answer}} is replaced by the answer).
 */
record Solution(Answer answer, Map<String, String> facts) {
    static Solution of(Answer answer) {
        return new Solution(answer, Map.of());
    }
}
