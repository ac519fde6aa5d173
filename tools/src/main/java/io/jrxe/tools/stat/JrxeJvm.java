package io.jrxe.tools.stat;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import com.sun.tools.attach.VirtualMachineDescriptor;
import io.jrxe.tools.UserError;
import io.jrxe.verbs.emulated.JmxNames;

import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A local JVM that runs jrxe devices, found through the Attach API. Only JVMs that the Attach API lists are
 * attached to: attaching to a process that is not a JVM would send it a signal that may end it. Which devices a
 * JVM has is read from its system properties ({@link JmxNames#DEVICES_PROPERTY}), which does not start its
 * management agent; {@link #connect} starts it (a local-only JMX connector) and connects.
 *
 * @param devices the devices' published names
 * @param name    what jps shows for it: the main class or jar and its arguments
 */
record JrxeJvm(long pid, List<String> devices, String name) {
    /** The JVM with this process id, or one line saying why it cannot be read. */
    static JrxeJvm of(long pid) {
        if (ProcessHandle.of(pid).isEmpty()) {
            throw new UserError("no process " + pid);
        }
        if (pid == ProcessHandle.current().pid()) {
            throw new UserError("process " + pid + " is this jrxe stat itself");
        }
        Optional<VirtualMachineDescriptor> vm = VirtualMachine.list().stream()
                .filter(d -> d.id().equals(Long.toString(pid))).findFirst();
        if (vm.isEmpty()) {
            throw new UserError("process " + pid + " is not a Java VM that this user may attach to "
                    + "(attach needs the same user, and a JVM without -XX:-UsePerfData)");
        }
        JrxeJvm jvm = read(vm.get());
        if (jvm.devices().isEmpty()) {
            throw new UserError("process " + pid + " (" + jvm.name() + ") is a Java VM without jrxe devices");
        }
        return jvm;
    }

    /** Every local JVM (but this one) that has jrxe devices; JVMs that cannot be attached to are left out. */
    static List<JrxeJvm> local() {
        List<JrxeJvm> found = new ArrayList<>();
        String self = Long.toString(ProcessHandle.current().pid());
        for (VirtualMachineDescriptor d : VirtualMachine.list()) {
            if (d.id().equals(self)) {
                continue;
            }
            try {
                JrxeJvm jvm = read(d);
                if (!jvm.devices().isEmpty()) {
                    found.add(jvm);
                }
            } catch (UserError e) {
                // another user's JVM, or one that ended meanwhile: not ours to list
            }
        }
        return found;
    }

    private static JrxeJvm read(VirtualMachineDescriptor d) {
        VirtualMachine vm = attach(d.id());
        try {
            String devices = vm.getSystemProperties().getProperty(JmxNames.DEVICES_PROPERTY, "");
            return new JrxeJvm(Long.parseLong(d.id()), devices.isEmpty() ? List.of() : List.of(devices.split(",")),
                    d.displayName());
        } catch (IOException e) {
            throw new UserError("cannot read the properties of process " + d.id() + ": " + e.getMessage(), e);
        } finally {
            detach(vm);
        }
    }

    /** Starts the JVM's local management agent and connects to it. */
    JMXConnector connect() {
        VirtualMachine vm = attach(Long.toString(pid));
        try {
            String address = vm.startLocalManagementAgent();
            return JMXConnectorFactory.connect(new JMXServiceURL(address));
        } catch (IOException e) {
            throw new UserError("cannot read the jrxe devices of process " + pid + " over JMX: " + e.getMessage(), e);
        } finally {
            detach(vm);
        }
    }

    private static VirtualMachine attach(String pid) {
        try {
            return VirtualMachine.attach(pid);
        } catch (AttachNotSupportedException | IOException e) {
            throw new UserError("cannot attach to process " + pid + ": " + e.getMessage()
                    + " (attach needs the same user, and a JVM without -XX:+DisableAttachMechanism)", e);
        }
    }

    private static void detach(VirtualMachine vm) {
        try {
            vm.detach();
        } catch (IOException e) {
            // the connection is gone either way
        }
    }
}
