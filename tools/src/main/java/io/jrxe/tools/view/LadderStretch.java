package io.jrxe.tools.view;

/**
 * One stretch of frames the page holds a ladder for: frames {@code from..to}, the ladder's data as JSON, and the
 * words of its link (which findings it shows).
 */
record LadderStretch(long from, long to, String label, String json) {
}
