package io.jrxe.verbs.emulated;

import io.jrxe.wire.stats.CounterRegistry;

import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanOperationInfo;
import javax.management.ReflectionException;
import java.util.Map;

/**
 * The MBean of a device: one read-only long attribute per counter of the NIC's registry, named as `rdma statistic`
 * names rxe's ({@code sent_pkts}, {@code rcvd_pkts}, ...) and jrxe's own ({@code jrxe_drop_bad_icrc}, QP1's, the
 * port's, congestion control's, ...). Counters may be read from any thread (their writers publish them with opaque
 * stores), so no read waits for the NIC.
 */
final class DeviceCounters implements DynamicMBean {
    private final String device;
    private final CounterRegistry counters;
    private final MBeanInfo info;

    DeviceCounters(String device, CounterRegistry counters) {
        this.device = device;
        this.counters = counters;
        Map<String, Long> names = counters.snapshot();
        MBeanAttributeInfo[] attributes = names.keySet().stream()
                .map(n -> new MBeanAttributeInfo(n, "long", "counter " + n, true, false, false))
                .toArray(MBeanAttributeInfo[]::new);
        this.info = new MBeanInfo(DeviceCounters.class.getName(), "the counters of jrxe device " + device, attributes,
                null, new MBeanOperationInfo[0], null);
    }

    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException {
        Long value = counters.snapshot().get(attribute);
        if (value == null) {
            throw new AttributeNotFoundException("device " + device + " has no counter " + attribute);
        }
        return value;
    }

    @Override
    public AttributeList getAttributes(String[] attributes) {
        Map<String, Long> now = counters.snapshot();
        AttributeList list = new AttributeList();
        for (String a : attributes) {
            Long value = now.get(a);
            if (value != null) {
                list.add(new Attribute(a, value));
            }
        }
        return list;
    }

    @Override
    public void setAttribute(Attribute attribute) throws AttributeNotFoundException {
        throw new AttributeNotFoundException("the counters of device " + device + " are read-only");
    }

    @Override
    public AttributeList setAttributes(AttributeList attributes) {
        return new AttributeList();
    }

    @Override
    public Object invoke(String actionName, Object[] params, String[] signature) throws ReflectionException {
        throw new ReflectionException(new NoSuchMethodException(actionName), "device " + device + " has no operations");
    }

    @Override
    public MBeanInfo getMBeanInfo() {
        return info;
    }
}
