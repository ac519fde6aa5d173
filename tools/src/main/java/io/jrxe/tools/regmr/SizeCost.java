package io.jrxe.tools.regmr;

/** What registering and deregistering a buffer of {@code bytes} cost on one device. */
public record SizeCost(long bytes, Spread registration, Spread deregistration) {
}
