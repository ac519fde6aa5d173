package io.jrxe.rnic;

import io.jrxe.rnic.cc.CongestionControl;
import io.jrxe.rnic.cc.DeviceWindow;
import io.jrxe.rnic.memory.PageFaultHook;
import io.jrxe.rnic.transport.ControlPathOnly;
import io.jrxe.rnic.transport.NicTransport;
import io.jrxe.wire.stats.CounterRegistry;
import io.jrxe.wire.time.NicTime;

/**
 * What a {@link Nic} is made from: its configuration and the parts it is built of, each with a
 * default, each replaceable (Aeron's {@code MediaDriver.Context} plays the same role):
 * <ul>
 *   <li>the <b>transport</b>: the port and what runs the NIC ({@link io.jrxe.rnic.transport}); by
 *       default none, a device with a control path only;</li>
 *   <li>the <b>clock</b>: the engines' time and timers, by default the transport's;</li>
 *   <li><b>congestion control</b>: when a QP may send and what CNPs and ECN marks do; by default
 *       {@link DeviceWindow} ({@code none}: a cap of packets in flight, no rate control); or
 *       {@link io.jrxe.rnic.cc.Dcqcn} ({@code dcqcn}: the same cap and a DCQCN rate per QP), or
 *       {@link io.jrxe.rnic.cc.Timely} ({@code timely}: the same cap and a TIMELY rate per QP);</li>
 *   <li><b>memory translation</b>'s page-fault hook: by default {@link PageFaultHook#PINNED};</li>
 *   <li>the <b>counters registry</b> every part counts into, which every reader reads.</li>
 * </ul>
 * A context makes one NIC: {@link #open()}.
 */
public final class NicContext {
    private final DeviceConfig config;
    private NicTransport transport;
    private NicTime clock;
    private CongestionControl.Factory congestionControl;
    private PageFaultHook pageFaults = PageFaultHook.PINNED;
    private CounterRegistry counters = new CounterRegistry();
    private boolean opened;

    public NicContext(DeviceConfig config) {
        if (config == null) {
            throw new IllegalArgumentException("a NIC needs a configuration");
        }
        this.config = config;
    }

    public DeviceConfig config() {
        return config;
    }

    public NicContext transport(NicTransport t) {
        transport = t;
        return this;
    }

    /** The transport, or a control path only when none was set. */
    public NicTransport transport() {
        if (transport == null) {
            transport = ControlPathOnly.inline();
        }
        return transport;
    }

    /** Replaces the transport's clock for the engines (a test's stand-in); timers then run on it. */
    public NicContext clock(NicTime c) {
        clock = c;
        return this;
    }

    public NicTime clock() {
        return clock != null ? clock : transport().time();
    }

    public NicContext congestionControl(CongestionControl.Factory f) {
        congestionControl = f;
        return this;
    }

    /** The congestion control's factory: a device window of {@link DeviceWindow#DEFAULT_PACKETS} unless one was set. */
    public CongestionControl.Factory congestionControl() {
        return congestionControl != null ? congestionControl : DeviceWindow.of(DeviceWindow.DEFAULT_PACKETS);
    }

    public NicContext pageFaults(PageFaultHook hook) {
        pageFaults = hook;
        return this;
    }

    public PageFaultHook pageFaults() {
        return pageFaults;
    }

    public NicContext counters(CounterRegistry registry) {
        counters = registry;
        return this;
    }

    public CounterRegistry counters() {
        return counters;
    }

    /** Makes the NIC; a context makes one. */
    public Nic open() {
        if (opened) {
            throw new IllegalStateException("this context made its NIC already: make a new one for another NIC");
        }
        opened = true;
        return new Nic(this);
    }
}
