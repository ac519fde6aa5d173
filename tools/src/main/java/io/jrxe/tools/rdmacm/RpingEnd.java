package io.jrxe.tools.rdmacm;

/**
 * The CM event thread ended the program, as rping's cm_thread calls exit() after an event it cannot go on from
 * (its line is printed already): the main thread unwinds, releases what it made, and the command exits 255.
 */
final class RpingEnd extends RuntimeException {
    /** exit(-1), as the shell sees it. */
    static final int EXIT_STATUS = 255;

    RpingEnd() {
        super("the CM event thread ended the program", null, false, false);
    }
}
