package io.jrxe.verbs.emulated;

import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * Where a running jrxe device shows itself to monitoring tools (`jrxe stat`, jconsole): the JMX names of
 * its MBeans on the platform MBean server, and the system property that lists the devices of a JVM, which
 * a tool can read through the Attach API without starting the JVM's management agent.
 */
public final class JmxNames {
    /** The MBeans' domain. */
    public static final String DOMAIN = "io.jrxe";
    /** The names of this JVM's published devices, comma-separated; absent when it has none. */
    public static final String DEVICES_PROPERTY = "io.jrxe.devices";
    /** Every device's MBean. */
    public static final ObjectName ALL_DEVICES = parse(DOMAIN + ":type=Device,*");

    private JmxNames() {
    }

    /** A device's MBean, whose attributes are its counters: {@code io.jrxe:type=Device,name=jrxe0}. */
    public static ObjectName device(String name) {
        return parse(DOMAIN + ":type=Device,name=" + name);
    }

    /** A QP's MBean ({@link QueuePairMXBean}): {@code io.jrxe:type=QueuePair,device=jrxe0,qpn=17}. */
    public static ObjectName queuePair(String device, int qpn) {
        return parse(DOMAIN + ":type=QueuePair,device=" + device + ",qpn=" + qpn);
    }

    /** The MBeans of every QP of one device. */
    public static ObjectName queuePairsOf(String device) {
        return parse(DOMAIN + ":type=QueuePair,device=" + device + ",*");
    }

    /** A device name as a JMX key value: the characters JMX reserves ({@code , = : " * ?} and line ends) become '_'. */
    static String keyValue(String deviceName) {
        return deviceName.replaceAll("[,=:\"*?\\n\\r]", "_");
    }

    private static ObjectName parse(String name) {
        try {
            return new ObjectName(name);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("not a JMX name: " + name, e);
        }
    }
}
