package io.jrxe.rnic.engine;

/**
 * QP number to engine state, for the receive path's dispatch: open addressing over int keys,
 * so a lookup neither boxes the QPN nor allocates. Written and read on the NIC thread only.
 */
final class QpTable {
    private int[] keys = new int[64];
    private QpEngine[] values = new QpEngine[64];
    private int size;

    QpEngine get(int qpn) {
        int mask = keys.length - 1;
        for (int i = mix(qpn) & mask; ; i = (i + 1) & mask) {
            QpEngine v = values[i];
            if (v == null) {
                return null;
            }
            if (keys[i] == qpn) {
                return v;
            }
        }
    }

    void put(int qpn, QpEngine engine) {
        if ((size + 1) * 2 > keys.length) {
            grow();
        }
        int mask = keys.length - 1;
        for (int i = mix(qpn) & mask; ; i = (i + 1) & mask) {
            if (values[i] == null) {
                keys[i] = qpn;
                values[i] = engine;
                size++;
                return;
            }
            if (keys[i] == qpn) {
                values[i] = engine;
                return;
            }
        }
    }

    void remove(int qpn) {
        int mask = keys.length - 1;
        int i = mix(qpn) & mask;
        while (values[i] != null && keys[i] != qpn) {
            i = (i + 1) & mask;
        }
        if (values[i] == null) {
            return;
        }
        values[i] = null;
        size--;
        // Re-insert the rest of the cluster so lookups do not stop at the hole.
        for (int j = (i + 1) & mask; values[j] != null; j = (j + 1) & mask) {
            QpEngine v = values[j];
            int k = keys[j];
            values[j] = null;
            size--;
            put(k, v);
        }
    }

    private void grow() {
        int[] oldKeys = keys;
        QpEngine[] oldValues = values;
        keys = new int[oldKeys.length * 2];
        values = new QpEngine[oldValues.length * 2];
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldValues[i] != null) {
                put(oldKeys[i], oldValues[i]);
            }
        }
    }

    private static int mix(int key) {
        int h = key * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
