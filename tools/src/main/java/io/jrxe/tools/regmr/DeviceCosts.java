package io.jrxe.tools.regmr;

import java.util.List;

/** One device's measurements, one row per size in the order asked: a series of the plot. */
public record DeviceCosts(String device, String provider, List<SizeCost> rows) {
}
