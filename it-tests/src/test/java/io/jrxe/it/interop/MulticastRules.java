package io.jrxe.it.interop;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Device;
import io.jrxe.verbs.DeviceAttributes;
import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.MulticastGid;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.verbs.facade.Verbs;

import java.io.PrintStream;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * ibv_attach_mcast's and ibv_detach_mcast's answers, one line each ("attach an RC QP: EINVAL"), on one device: the
 * kernel's rxe0 in the lab's guest, or a jrxe NIC made here. {@link KernelRxeMulticast} runs it on both and
 * expects the same lines, but for the steps where rxe0 stays busy (differences.md). Run as
 * {@code java ... io.jrxe.it.interop.MulticastRules rxe0} (or {@code jrxe 127.0.9.1} for a jrxe NIC at that address).
 */
public final class MulticastRules {
    private static final String GROUP = "239.192.9.9";

    private final List<String> lines = new ArrayList<>();

    private MulticastRules() {
    }

    @FunctionalInterface
    private interface Verb {
        void run() throws VerbsException;
    }

    /** The verb's answer: OK, or the errno's name. */
    private void step(String what, Verb verb) {
        String answer;
        try {
            verb.run();
            answer = "OK";
        } catch (VerbsException e) {
            answer = e.errno().name();
        }
        lines.add(what + ": " + answer);
    }

    /** The lines for {@code device}: a kernel device's name, or "jrxe" and an address for a jrxe NIC. */
    public static List<String> on(String... args) throws Exception {
        Device device = args[0].equals("jrxe")
                ? Verbs.emulated().createUdp(DeviceConfig.of("jrxe-mcast-rules", InetAddress.getByName(args[1])))
                : Verbs.device(args[0]);
        try (Context ctx = device.open()) {
            return new MulticastRules().run(ctx);
        } finally {
            if (device instanceof EmulatedDevice e) {
                e.close();
            }
        }
    }

    private List<String> run(Context ctx) throws Exception {
        DeviceAttributes a = ctx.queryDevice();
        lines.add("max_mcast_grp " + a.maxMcastGrp() + ", max_mcast_qp_attach " + a.maxMcastQpAttach()
                + ", max_total_mcast_qp_attach " + a.maxTotalMcastQpAttach());
        byte[] group = MulticastGid.of(InetAddress.getByName(GROUP));
        byte[] unicast = GidEntry.gidOf(InetAddress.getByName("10.9.9.9"));
        Pd pd = ctx.allocPd();
        Cq cq = ctx.createCq(8, null);
        QpCapabilities caps = new QpCapabilities(4, 4, 1, 1, 0);
        Qp rc = pd.createQp(new QpInitAttributes(QpType.RC, cq, cq, null, caps, false));
        Qp ud = pd.createQp(new QpInitAttributes(QpType.UD, cq, cq, null, caps, false));
        Qp other = pd.createQp(new QpInitAttributes(QpType.UD, cq, cq, null, caps, false));
        step("attach an RC QP", () -> rc.attachMcast(group, 0));
        step("attach a UD QP to a unicast GID", () -> ud.attachMcast(unicast, 0));
        step("attach a UD QP in RESET", () -> ud.attachMcast(group, 0));
        step("attach the same GID and LID again", () -> ud.attachMcast(group, 0));
        step("attach the same GID with LID 7", () -> ud.attachMcast(group, 7));
        step("attach a second QP", () -> other.attachMcast(group, 0));
        step("destroy an attached QP", ud::close);
        byte[] never = MulticastGid.of(InetAddress.getByName("239.192.9.10"));
        step("detach a GID never attached", () -> ud.detachMcast(never, 0));
        step("detach with LID 0", () -> ud.detachMcast(group, 0));
        step("detach with LID 7 (the QP left with LID 0)", () -> ud.detachMcast(group, 7));
        step("detach with LID 0 again", () -> ud.detachMcast(group, 0));
        step("detach the second QP", () -> other.detachMcast(group, 0));
        step("attach again after the group emptied", () -> ud.attachMcast(group, 3));
        step("detach it", () -> ud.detachMcast(group, 3));
        step("destroy the detached QP", ud::close);
        step("destroy the second QP", other::close);
        step("destroy the RC QP", rc::close);
        step("destroy the CQ", cq::close);
        step("free the PD", pd::close);
        return lines;
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = System.out;
        for (String line : on(args)) {
            out.println(line);
        }
        out.println("done");
    }
}
