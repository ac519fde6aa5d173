package io.jrxe.tools.regmr;

/**
 * What registering and deregistering a buffer of {@code bytes} cost on one device: the spreads of the round that
 * settled, how many rounds it took (those before it were warm-up), whether it settled before the bound on rounds.
 */
public record SizeCost(long bytes, Spread registration, Spread deregistration, int rounds, boolean settled) {
}
