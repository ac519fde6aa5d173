package io.jrxe.tools.regmr;

import java.util.List;

/**
 * One device's measurements, one row per size in the order asked: a series of the plot. {@code warmUpPasses} untimed
 * passes over every size came first, until a pass took as long as the one before it ({@code warmedUp}) or the bound
 * on rounds was reached. With --odp, {@code touches} holds the first touch of each size, or is empty when the device
 * could not prefetch ({@code touchRefused} says why); without --odp it is empty and {@code touchRefused} null.
 */
public record DeviceCosts(String device, String provider, int warmUpPasses, boolean warmedUp, List<SizeCost> rows,
                          List<FirstTouch> touches, String touchRefused) {
}
