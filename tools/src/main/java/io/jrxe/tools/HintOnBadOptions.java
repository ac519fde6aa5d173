package io.jrxe.tools;

/**
 * A command whose bad options are answered with one line, the problem and a pointer to --help,
 * instead of the whole usage: for commands whose usage is long compared with the one thing that was
 * wrong (`jrxe view`, the sizing commands).
 */
public interface HintOnBadOptions {
}
