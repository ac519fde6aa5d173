package io.jrxe.tools.perftest;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * perftest's struct perftest_parameters_negotiate (perftest 6.28 on): the test's settings, which both sides must
 * share, and the device's ibv_device_attr. The settings are 32- and 64-bit integers in network order, numbered as
 * perftest numbers them; the attributes are in the sender's order ({@link DeviceAttrWire}).
 *
 * <p>The layout, as a C compiler lays the struct out on x86-64 and arm64: seven ints (test_method,
 * connection_type, verb, tst, atomicType, test_type, report_fmt), 4 bytes of padding, size and iters as uint64 at
 * 32 and 40, eight ints from 48 (aes_xts, num_of_qps, duration, use_rdma_cm, use_write_with_imm,
 * no_enhanced_reorder, sig_offload, and from 6.29 data_validation, which in 6.28 is padding), the device
 * attributes at 80 (232 bytes), and in a perftest built with mlx5dv (as every distribution's) mlx5dv_comp_mask at
 * 312: {@value #SIZE_MLX5DV} bytes, {@value #SIZE} without it.
 */
record NegotiationParameters(int testMethod, int connectionType, int verb, int tst, int atomicType, int testType, int reportFmt,
                             long size, long iters, int aesXts, int numOfQps, int duration, int useRdmaCm, int useWriteWithImm,
                             int noEnhancedReorder, int sigOffload, int dataValidation, byte[] deviceAttr, long mlx5dvCompMask) {
    static final int SIZE = 312;
    static final int SIZE_MLX5DV = 320;
    static final int ATTR_OFFSET = 80;
    /** perftest's DEF_DURATION: what it sends when no -D was given. */
    static final int DEF_DURATION = 5;

    NegotiationParameters {
        if (deviceAttr.length != DeviceAttrWire.SIZE) {
            throw new IllegalArgumentException("an ibv_device_attr has " + DeviceAttrWire.SIZE + " bytes");
        }
        deviceAttr = deviceAttr.clone();
    }

    @Override
    public byte[] deviceAttr() {
        return deviceAttr.clone();
    }

    /** perftest's VerbType: SEND, SEND_IMM, WRITE, WRITE_IMM, READ, ATOMIC. */
    static int verbNumber(Verb v) {
        return switch (v) {
            case SEND -> 0;
            case WRITE -> 2;
            case READ -> 4;
            case ATOMIC -> 5;
        };
    }

    /** What perftest would send for the same options, at the point it negotiates (after the MTU, before the QPs). */
    static NegotiationParameters of(PerftestSettings s, byte[] deviceAttr) {
        boolean duration = s.durationSeconds > 0;
        return new NegotiationParameters(s.all ? 1 : 0, s.connection.number(), verbNumber(s.verb), s.bw ? 1 : 0,
                "FETCH_AND_ADD".equals(s.atomicType) ? 1 : 0, duration ? 1 : 0, s.gbits ? 0 : 1, s.size, duration ? 0 : s.iters,
                0, s.qps, duration ? s.durationSeconds : DEF_DURATION, s.rdmaCmExchange ? 1 : 0, 0, 0, 0, 0, deviceAttr, 0);
    }

    /** The struct's bytes, {@link #SIZE} or {@link #SIZE_MLX5DV} of them. */
    byte[] encode(int length) {
        ByteBuffer b = ByteBuffer.allocate(length);
        b.putInt(0, testMethod).putInt(4, connectionType).putInt(8, verb).putInt(12, tst).putInt(16, atomicType)
                .putInt(20, testType).putInt(24, reportFmt);
        b.putLong(32, size).putLong(40, iters);
        b.putInt(48, aesXts).putInt(52, numOfQps).putInt(56, duration).putInt(60, useRdmaCm).putInt(64, useWriteWithImm)
                .putInt(68, noEnhancedReorder).putInt(72, sigOffload).putInt(76, dataValidation);
        b.put(ATTR_OFFSET, deviceAttr);
        if (length == SIZE_MLX5DV) {
            b.putLong(SIZE, mlx5dvCompMask);
        }
        return b.array();
    }

    /** A peer's struct, of either length. */
    static NegotiationParameters decode(byte[] wire) {
        if (wire.length != SIZE && wire.length != SIZE_MLX5DV) {
            throw new IllegalArgumentException("a negotiation struct has " + SIZE + " or " + SIZE_MLX5DV + " bytes, not " + wire.length);
        }
        ByteBuffer b = ByteBuffer.wrap(wire);
        return new NegotiationParameters(b.getInt(0), b.getInt(4), b.getInt(8), b.getInt(12), b.getInt(16), b.getInt(20),
                b.getInt(24), b.getLong(32), b.getLong(40), b.getInt(48), b.getInt(52), b.getInt(56), b.getInt(60), b.getInt(64),
                b.getInt(68), b.getInt(72), b.getInt(76), Arrays.copyOfRange(wire, ATTR_OFFSET, ATTR_OFFSET + DeviceAttrWire.SIZE),
                wire.length == SIZE_MLX5DV ? b.getLong(SIZE) : 0);
    }

    /** One compared field: its C name, how perftest names its values (null: as a number), and where it is. */
    private record Field(String name, List<String> values, ToLongFunction<NegotiationParameters> get) {
    }

    private static final List<String> OFF_ON = List.of("OFF", "ON");
    private static final List<Field> COMPARED = List.of(
            new Field("test_method", List.of("RUN_REGULAR", "RUN_ALL", "RUN_INFINITELY"), NegotiationParameters::testMethod),
            new Field("connection_type", List.of("RC", "UC", "UD", "RawEth", "XRC", "DC", "SRD"), NegotiationParameters::connectionType),
            new Field("verb", List.of("SEND", "SEND_IMM", "WRITE", "WRITE_IMM", "READ", "ATOMIC"), NegotiationParameters::verb),
            new Field("tst", List.of("LAT", "BW", "LAT_BY_BW", "FS_RATE"), NegotiationParameters::tst),
            new Field("atomicType", List.of("CMP_AND_SWAP", "FETCH_AND_ADD"), NegotiationParameters::atomicType),
            new Field("test_type", List.of("ITERATIONS", "DURATION"), NegotiationParameters::testType),
            new Field("report_fmt", List.of("GBS", "MBS"), NegotiationParameters::reportFmt),
            new Field("size", null, NegotiationParameters::size),
            new Field("iters", null, NegotiationParameters::iters),
            new Field("aes_xts", OFF_ON, NegotiationParameters::aesXts),
            new Field("num_of_qps", null, NegotiationParameters::numOfQps),
            new Field("duration", null, NegotiationParameters::duration),
            new Field("use_rdma_cm", OFF_ON, NegotiationParameters::useRdmaCm),
            new Field("use_write_with_imm", OFF_ON, NegotiationParameters::useWriteWithImm),
            new Field("no_enhanced_reorder", OFF_ON, NegotiationParameters::noEnhancedReorder),
            new Field("sig_offload", OFF_ON, NegotiationParameters::sigOffload),
            new Field("data_validation", OFF_ON, NegotiationParameters::dataValidation));

    /**
     * perftest's comparison, field by field in its order: the first that differs, as perftest prints it
     * ("size mismatch: local=65536, remote=1024"), or null when the settings agree. {@code withDataValidation}:
     * the peer is 6.29 or later, whose struct has that field (in 6.28 those bytes are padding).
     */
    String mismatch(NegotiationParameters remote, boolean withDataValidation) {
        for (Field f : COMPARED) {
            if (f.name().equals("data_validation") && !withDataValidation) {
                continue;
            }
            long mine = f.get().applyAsLong(this);
            long theirs = f.get().applyAsLong(remote);
            if (mine != theirs) {
                return f.name() + " mismatch: local=" + name(f, mine) + ", remote=" + name(f, theirs);
            }
        }
        return null;
    }

    private static String name(Field f, long value) {
        return f.values() != null && value >= 0 && value < f.values().size() ? f.values().get((int) value) : Long.toUnsignedString(value);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NegotiationParameters p && Arrays.equals(p.encode(SIZE_MLX5DV), encode(SIZE_MLX5DV));
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(encode(SIZE_MLX5DV));
    }

    @Override
    public String toString() {
        return "NegotiationParameters[size=" + size + ", iters=" + iters + ", qps=" + numOfQps + ", verb=" + verb + ", tst=" + tst + "]";
    }
}
