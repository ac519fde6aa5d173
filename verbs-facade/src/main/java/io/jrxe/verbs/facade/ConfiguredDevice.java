package io.jrxe.verbs.facade;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicContext;
import io.jrxe.rnic.cc.CongestionControlChoice;

/**
 * One device of a device file: its configuration and what the NIC is built with beside it (its
 * congestion control, by name: {@link CongestionControlChoice}).
 *
 * @param config            what {@link DeviceConfig} holds
 * @param congestionControl the name of its congestion control, checked
 */
public record ConfiguredDevice(DeviceConfig config, String congestionControl) {
    public ConfiguredDevice {
        CongestionControlChoice.named(congestionControl); // refuses a name no part has, with the names there are
    }

    /** The context a NIC of this device is made from; its transport is the caller's to give. */
    public NicContext context() {
        return new NicContext(config).congestionControl(CongestionControlChoice.named(congestionControl));
    }
}
