package io.jrxe.wire.header;

/** Atomic ACK Extended Transport Header, 8 bytes: the original remote data before the atomic. */
public final class AtomicAckEthFlyweight extends Flyweight<AtomicAckEthFlyweight> {
    public static final int LENGTH = 8;

    @Override
    public int length() {
        return LENGTH;
    }

    public long originalData() {
        return i64(0);
    }

    public AtomicAckEthFlyweight originalData(long value) {
        i64(0, value);
        return this;
    }
}
