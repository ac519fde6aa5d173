package io.jrxe.verbs.emulated;

import io.jrxe.rnic.engine.QpHandle;

import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Registers the MBeans of running devices and their QPs on the platform MBean server ({@link JmxNames}) and
 * keeps {@link JmxNames#DEVICES_PROPERTY} listing them. Two devices of one name in one JVM (made by two
 * providers) are published as {@code jrxe0} and {@code jrxe0#2}. Registration happens on the caller's thread,
 * never in a NIC command: the MBean server has locks of its own.
 */
final class LiveStatePublisher {
    private static final Set<String> PUBLISHED = new LinkedHashSet<>();

    private LiveStatePublisher() {
    }

    private static MBeanServer server() {
        return ManagementFactory.getPlatformMBeanServer();
    }

    /** Publishes a device's counters; returns the name it is published under. */
    static String publishDevice(EmulatedDevice device) {
        synchronized (PUBLISHED) {
            String base = JmxNames.keyValue(device.name());
            String name = base;
            for (int n = 2; PUBLISHED.contains(name) || server().isRegistered(JmxNames.device(name)); n++) {
                name = base + "#" + n;
            }
            register(new DeviceCounters(name, device.nic().counters()), JmxNames.device(name));
            PUBLISHED.add(name);
            System.setProperty(JmxNames.DEVICES_PROPERTY, String.join(",", PUBLISHED));
            return name;
        }
    }

    /** Removes a device's MBean and those of the QPs it still has. */
    static void unpublishDevice(String name) {
        synchronized (PUBLISHED) {
            for (ObjectName qp : server().queryNames(JmxNames.queuePairsOf(name), null)) {
                unregister(qp);
            }
            unregister(JmxNames.device(name));
            PUBLISHED.remove(name);
            if (PUBLISHED.isEmpty()) {
                System.clearProperty(JmxNames.DEVICES_PROPERTY);
            } else {
                System.setProperty(JmxNames.DEVICES_PROPERTY, String.join(",", PUBLISHED));
            }
        }
    }

    static void publishQp(EmulatedDevice device, String deviceName, int qpn, QpHandle handle) {
        register(new QueuePairStatus(device.rnic(), deviceName, handle), JmxNames.queuePair(deviceName, qpn));
    }

    static void unpublishQp(String deviceName, int qpn) {
        unregister(JmxNames.queuePair(deviceName, qpn));
    }

    private static void register(Object mbean, ObjectName name) {
        try {
            server().registerMBean(mbean, name);
        } catch (JMException e) {
            throw new IllegalStateException("cannot publish " + name + " on the platform MBean server: " + e.getMessage(), e);
        }
    }

    private static void unregister(ObjectName name) {
        try {
            server().unregisterMBean(name);
        } catch (InstanceNotFoundException e) {
            // gone already (its device was closed first)
        } catch (JMException e) {
            throw new IllegalStateException("cannot remove " + name + " from the platform MBean server: " + e.getMessage(), e);
        }
    }
}
