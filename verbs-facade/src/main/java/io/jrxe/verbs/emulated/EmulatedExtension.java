package io.jrxe.verbs.emulated;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.memory.AccessError;
import io.jrxe.rnic.memory.Translation;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Device;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WorkCompletion;

import java.util.Optional;

/**
 * What only jrxe's emulated NIC can do, and the one way to it from the verbs API.
 *
 * <p>The verbs API ({@code io.jrxe.verbs}) says only what every provider honours, a kernel device through
 * libibverbs as much as a jrxe NIC. A jrxe NIC can do more, because it is software whose insides are there to
 * look at; a program that wants one of those abilities says so, by asking a verbs object of an emulated device
 * for this extension. On a kernel device's objects {@code of} is empty: the program sees at the call that it
 * has left what libibverbs offers.
 *
 * <pre>{@code
 * Optional<EmulatedExtension> jrxe = EmulatedExtension.of(ctx);      // empty for rxe0's context
 * WorkCompletion wc = ...;                                          // polled from a CQ of ctx
 * String why = jrxe.map(x -> x.vendorErrMeaning(wc)).orElse("");    // "NAK remote access error", ...
 *
 * EmulatedExtension nic = EmulatedExtension.of(ctx).orElseThrow();  // this program needs a jrxe NIC
 * Translation t = nic.translate(mr, mr.iova());                     // lkey -> MPT entry -> MTT[i] -> page + offset
 * }</pre>
 *
 * <p>The abilities:
 * <ul>
 *   <li>{@link #config()}, {@link #mttEntries()}: what the NIC was made from, its memory translation table's size
 *       among it. ibv_device_attr has no field for an MTT: a kernel device's is its firmware's or driver's.</li>
 *   <li>{@link #translate(Mr, long)}: the MTT walk of an iova through an MR, as the NIC's DMA makes it. A kernel
 *       device's translation tables are not visible to user space.</li>
 *   <li>{@link #sleepUntilCompletion(Cq, long)}: a poller with nothing to do sleeps until the NIC writes a
 *       completion to its CQ, woken directly by the NIC thread, without a completion channel. A kernel device's
 *       CQ wakes no one but through a completion channel.</li>
 *   <li>{@link #vendorErrMeaning(WorkCompletion)}: what a completion's vendor_err says on a jrxe NIC (the rule
 *       that refused an access, the NAK's code, ...; the table in docs/architecture.md), and
 *       {@link #describe(WorkCompletion)}, a completion printed with it. A kernel device's vendor_err is its
 *       vendor's own.</li>
 * </ul>
 */
public final class EmulatedExtension {
    /** The NAK codes of IBTA's AETH, which a remote error's vendor_err carries. */
    private static final String[] NAK_CODES = {"PSN sequence error", "invalid request", "remote access error",
        "remote operational error", "invalid RD request"};
    private static final AccessError[] ACCESS_ERRORS = AccessError.values();
    private static final String REMOTE_RULE = "; the responder's async event names the rule";

    private final EmulatedDevice device;

    private EmulatedExtension(EmulatedDevice device) {
        this.device = device;
    }

    /** The extension of {@code device}, or empty when it is not a jrxe NIC. */
    public static Optional<EmulatedExtension> of(Device device) {
        return device instanceof EmulatedDevice d ? Optional.of(new EmulatedExtension(d)) : Optional.empty();
    }

    /** The extension of the device {@code context} was opened on, or empty when that is not a jrxe NIC. */
    public static Optional<EmulatedExtension> of(Context context) {
        return context instanceof EmulatedContext c ? of(c.device()) : Optional.empty();
    }

    /** The extension of the device {@code cq} belongs to, or empty when that is not a jrxe NIC. */
    public static Optional<EmulatedExtension> of(Cq cq) {
        return cq instanceof EmulatedCq c ? Optional.of(new EmulatedExtension(c.device())) : Optional.empty();
    }

    /** The jrxe NIC this extension reaches. */
    public EmulatedDevice device() {
        return device;
    }

    /** What the NIC was made from: its name, addresses, interface MTU, attributes and MTT size. */
    public DeviceConfig config() {
        return device.rnic().config();
    }

    /** The capacity of the NIC's memory translation table, in 8-byte entries (devinfo's mtt_entries). */
    public long mttEntries() {
        return config().mttEntries();
    }

    /**
     * The MTT walk of {@code iova} through {@code mr}, an MR of this NIC: the key's MPT entry, the MTT entry of
     * the iova's page, the page's address and the offset in it.
     *
     * @throws VerbsException EINVAL when {@code mr} is not an MR of this NIC, or the key or iova does not resolve
     */
    public Translation translate(Mr mr, long iova) throws VerbsException {
        if (!(mr instanceof EmulatedMr m) || !m.belongsTo(device.rnic())) {
            throw new VerbsException(Errno.EINVAL, mr + " is not an MR of " + device.name()
                    + ": only a jrxe NIC's own MRs translate through its MTT");
        }
        return m.translate(iova);
    }

    /**
     * For the CQ's one poller when it has nothing to do but wait: sleeps until this NIC writes a completion to
     * {@code cq} or {@code nanos} pass, and may return early. Returns false at once when the CQ cannot wake a
     * sleeper (the NIC runs on the poller's own thread, {@link Progress#INVOKER}); the caller then waits its own
     * way. Not ibv_get_cq_event: no channel, no arming, nothing to acknowledge.
     *
     * @throws IllegalArgumentException when {@code cq} is not a CQ of this NIC
     */
    public boolean sleepUntilCompletion(Cq cq, long nanos) {
        if (!(cq instanceof EmulatedCq c) || c.device() != device) {
            throw new IllegalArgumentException(cq + " is not a CQ of " + device.name());
        }
        return c.sleepUntilCompletion(nanos);
    }

    /**
     * What {@code wc}'s vendor_err says, for a completion polled from this jrxe NIC: for a remote error the NAK's
     * code, for a local protection or access error the key rule that refused it ({@link AccessError}), for a bad
     * response its opcode; "" for 0.
     */
    public String vendorErrMeaning(WorkCompletion wc) {
        int vendorErr = wc.vendorErr();
        if (vendorErr == 0) {
            return "";
        }
        return switch (wc.status()) {
            // A NAK carries its code alone: the rule the request broke is named by the responder's async event.
            case REM_INV_REQ_ERR, REM_ACCESS_ERR, REM_OP_ERR, REM_INV_RD_REQ_ERR -> vendorErr < NAK_CODES.length
                    ? "NAK " + NAK_CODES[vendorErr] + REMOTE_RULE : "NAK code " + vendorErr + " (reserved)";
            case LOC_PROT_ERR, LOC_QP_OP_ERR, LOC_ACCESS_ERR, MW_BIND_ERR -> vendorErr < ACCESS_ERRORS.length
                    ? ACCESS_ERRORS[vendorErr].description() : "rule " + vendorErr;
            case BAD_RESP_ERR -> String.format("unexpected response 0x%02x", vendorErr);
            default -> "vendor error " + vendorErr;
        };
    }

    /** {@code wc} as its toString gives it, with its vendor_err's meaning after it when it has one. */
    public String describe(WorkCompletion wc) {
        return wc.vendorErr() == 0 ? wc.toString() : wc + " (" + vendorErrMeaning(wc) + ")";
    }

    @Override
    public String toString() {
        return "the emulated extension of " + device.name();
    }
}
