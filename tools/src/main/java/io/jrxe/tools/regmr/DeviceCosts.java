package io.jrxe.tools.regmr;

import java.util.List;

/**
 * One device's measurements, one row per size in the order asked: a series of the plot. {@code warmUpPasses} untimed
 * passes over every size came first, until a pass took as long as the one before it ({@code warmedUp}) or the bound
 * on rounds was reached.
 */
public record DeviceCosts(String device, String provider, int warmUpPasses, boolean warmedUp, List<SizeCost> rows) {
}
