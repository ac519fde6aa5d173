package io.jrxe.tools.stat;

import io.jrxe.tools.UserError;
import io.jrxe.verbs.emulated.JmxNames;

import javax.management.Attribute;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Comparator;
import java.util.List;

/**
 * One report of a JVM's jrxe devices, read over JMX: per device a {@code link NAME/1} line and its counters one
 * {@code name=value} a line (what `rdma statistic show` gives for a kernel device), then with QPs one line per
 * QP as `rdma resource show qp` prints them ({@code dev jrxe0 lqpn 17 rqpn 18 type RC state RTS ...}).
 */
final class StatReport {
    private StatReport() {
    }

    static void print(MBeanServerConnection jmx, long pid, boolean qps, PrintWriter out) {
        try {
            List<ObjectName> devices = jmx.queryNames(JmxNames.ALL_DEVICES, null).stream()
                    .sorted(Comparator.comparing(n -> n.getKeyProperty("name"))).toList();
            if (devices.isEmpty()) {
                throw new UserError("process " + pid + " has no jrxe device any more");
            }
            for (ObjectName device : devices) {
                String name = device.getKeyProperty("name");
                out.println("link " + name + "/1");
                String[] counters = java.util.Arrays.stream(jmx.getMBeanInfo(device).getAttributes())
                        .map(MBeanAttributeInfo::getName).toArray(String[]::new);
                for (Attribute a : jmx.getAttributes(device, counters).asList()) {
                    out.println("    " + a.getName() + "=" + a.getValue());
                }
            }
            if (qps) {
                for (ObjectName device : devices) {
                    String name = device.getKeyProperty("name");
                    List<ObjectName> qpNames = jmx.queryNames(JmxNames.queuePairsOf(name), null).stream()
                            .sorted(Comparator.comparingInt(n -> Integer.parseInt(n.getKeyProperty("qpn")))).toList();
                    for (ObjectName qp : qpNames) {
                        try {
                            out.println("dev " + name + " " + jmx.getAttribute(qp, "Summary"));
                        } catch (javax.management.InstanceNotFoundException e) {
                            // destroyed since it was listed
                        }
                    }
                }
            }
            out.flush();
        } catch (IOException e) {
            throw new UserError("lost the connection to process " + pid + ": " + e.getMessage(), e);
        } catch (JMException e) {
            throw new UserError("process " + pid + " answered: " + e.getMessage(), e);
        }
    }
}
