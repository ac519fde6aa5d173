package io.jrxe.verbs.spi;

import io.jrxe.verbs.Cq;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * For providers: how a provider's {@link Cq#poll} fills the {@link WorkCompletion} objects its caller passes in
 * (ibv_poll_cq writing the caller's ibv_wc array), so that polling allocates nothing. A program cannot make or
 * change a completion through {@code WorkCompletion} itself; it keeps one by copying it
 * ({@link WorkCompletion#WorkCompletion(WorkCompletion)}).
 */
public final class WorkCompletionFiller {
    /**
     * WorkCompletion's package-private {@code fill}, reached as a friend: a lookup with private access to the
     * class, in the same module. Static and final, so the JIT inlines the call as a direct one.
     */
    private static final MethodHandle FILL;

    static {
        try {
            FILL = MethodHandles.privateLookupIn(WorkCompletion.class, MethodHandles.lookup()).findVirtual(
                    WorkCompletion.class, "fill", MethodType.methodType(void.class, long.class, WcStatus.class,
                            WcOpcode.class, int.class, int.class, int.class, int.class, int.class, int.class, int.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private WorkCompletionFiller() {
    }

    /**
     * Fills every field of {@code wc} with one completion the provider polled; returns wc.
     *
     * @param wrId      the work request's wr_id
     * @param status    SUCCESS, or why the work request failed
     * @param opcode    what completed
     * @param vendorErr the provider's vendor_err (0 unless the status is an error)
     * @param byteLen   bytes received, or read by a READ or an atomic
     * @param immData   the immediate data (WITH_IMM) or the invalidated R_Key (WITH_INV)
     * @param qpNum     the local QP's number
     * @param srcQp     for a UD receive, the sending QP's number
     * @param wcFlags   {@link WorkCompletion#WITH_GRH}, {@link WorkCompletion#WITH_IMM}, {@link WorkCompletion#WITH_INV}
     * @param pkeyIndex for a UD receive, the P_Key index
     * @return {@code wc}
     */
    public static WorkCompletion fill(WorkCompletion wc, long wrId, WcStatus status, WcOpcode opcode, int vendorErr,
                                      int byteLen, int immData, int qpNum, int srcQp, int wcFlags, int pkeyIndex) {
        try {
            FILL.invokeExact(wc, wrId, status, opcode, vendorErr, byteLen, immData, qpNum, srcQp, wcFlags, pkeyIndex);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("WorkCompletion.fill throws nothing checked", t);
        }
        return wc;
    }
}
