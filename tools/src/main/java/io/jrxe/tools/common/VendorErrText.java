package io.jrxe.tools.common;

import io.jrxe.verbs.Cq;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.emulated.EmulatedExtension;

/** A completion's vendor_err as the tools print it, with its meaning where the device is a jrxe NIC. */
public final class VendorErrText {
    private VendorErrText() {
    }

    /**
     * "vendor_err N" for a completion polled from {@code cq}, with what N means when the CQ is a jrxe NIC's
     * ("vendor_err 2: NAK remote access error"); a kernel device's vendor_err is its vendor's own, so it is
     * given as the number alone.
     */
    public static String vendorErr(Cq cq, WorkCompletion wc) {
        String meaning = EmulatedExtension.of(cq).map(jrxe -> jrxe.vendorErrMeaning(wc)).orElse("");
        return "vendor_err " + wc.vendorErr() + (meaning.isEmpty() ? "" : ": " + meaning);
    }
}
