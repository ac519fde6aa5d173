package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.SequenceLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.UnionLayout;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * C's types and its struct rules on 64-bit Linux (LP64), so that each libibverbs struct can be
 * written as its member list in the header's order: padding goes where a C compiler puts it.
 * The layout tests compare every named member with offsetof and sizeof from gcc.
 */
public final class CLayout {
    public static final ValueLayout.OfByte U8 = ValueLayout.JAVA_BYTE;
    public static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT;
    public static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;
    public static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT;
    /** Enums are ints in every libibverbs struct (none has a value outside int's range). */
    public static final ValueLayout.OfInt ENUM = ValueLayout.JAVA_INT;
    public static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG;
    public static final ValueLayout.OfLong SIZE_T = ValueLayout.JAVA_LONG;
    public static final AddressLayout POINTER = ValueLayout.ADDRESS;

    /**
     * glibc's pthread_mutex_t: 40 bytes on x86-64, 48 on aarch64; libibverbs' QP, CQ, SRQ and
     * context embed one, so every member after it moves with the architecture.
     */
    public static final long PTHREAD_MUTEX_SIZE = "aarch64".equals(System.getProperty("os.arch")) ? 48 : 40;
    /** glibc's pthread_cond_t: 48 bytes on both. */
    public static final long PTHREAD_COND_SIZE = 48;

    private CLayout() {
    }

    public static MemoryLayout pthreadMutex(String name) {
        return opaque(PTHREAD_MUTEX_SIZE, 8, name);
    }

    public static MemoryLayout pthreadCond(String name) {
        return opaque(PTHREAD_COND_SIZE, 8, name);
    }

    /** A C array member ({@code char name[count]}, {@code uint8_t raw[16]}). */
    public static SequenceLayout array(long count, MemoryLayout element, String name) {
        return MemoryLayout.sequenceLayout(count, element).withName(name);
    }

    /** Bytes jrxe never reads, with the size and alignment C gives them. */
    private static MemoryLayout opaque(long size, long alignment, String name) {
        return MemoryLayout.sequenceLayout(size / alignment, ValueLayout.JAVA_LONG).withName(name);
    }

    /** A C struct: each member at the next offset its alignment allows, the size a multiple of the largest alignment. */
    public static StructLayout struct(String name, MemoryLayout... members) {
        List<MemoryLayout> laid = new ArrayList<>();
        long offset = 0;
        long alignment = 1;
        for (MemoryLayout m : members) {
            long a = m.byteAlignment();
            long pad = (a - offset % a) % a;
            if (pad > 0) {
                laid.add(MemoryLayout.paddingLayout(pad));
                offset += pad;
            }
            laid.add(m);
            offset += m.byteSize();
            alignment = Math.max(alignment, a);
        }
        long tail = (alignment - offset % alignment) % alignment;
        if (tail > 0) {
            laid.add(MemoryLayout.paddingLayout(tail));
        }
        StructLayout s = MemoryLayout.structLayout(laid.toArray(MemoryLayout[]::new)).withByteAlignment(alignment);
        return name == null ? s : s.withName(name);
    }

    /** A C union: the size of its largest member, rounded up to its largest alignment. */
    public static UnionLayout union(String name, MemoryLayout... members) {
        long size = 0;
        long alignment = 1;
        for (MemoryLayout m : members) {
            size = Math.max(size, m.byteSize());
            alignment = Math.max(alignment, m.byteAlignment());
        }
        List<MemoryLayout> all = new ArrayList<>(List.of(members));
        long rounded = (size + alignment - 1) / alignment * alignment;
        if (rounded > size) {
            all.add(MemoryLayout.paddingLayout(rounded));
        }
        UnionLayout u = MemoryLayout.unionLayout(all.toArray(MemoryLayout[]::new)).withByteAlignment(alignment);
        return name == null ? u : u.withName(name);
    }

    /**
     * The offset of a member named by its C path ("grh.dgid", "wr.rdma.rkey"). Unnamed members
     * (C's anonymous unions, as in ibv_wc's imm_data) are looked into, as C does.
     */
    public static long offset(MemoryLayout root, String path) {
        Member m = find(root, path);
        return m.offset();
    }

    /** The size of a member named by its C path. */
    public static long size(MemoryLayout root, String path) {
        return find(root, path).size();
    }

    private static Member find(MemoryLayout root, String path) {
        for (Member m : members(root)) {
            if (m.path().equals(path)) {
                return m;
            }
        }
        for (Member m : groups(root, "", 0, new ArrayList<>())) {
            if (m.path().equals(path)) {
                return m;
            }
        }
        throw new IllegalArgumentException(root.name().orElse("layout") + " has no member " + path);
    }

    /** A named member: its C path, offset and size. */
    public record Member(String path, long offset, long size) {
    }

    /** Every named leaf member (values, arrays, opaque blocks), in order: what the layout tests compare with gcc. */
    public static List<Member> members(MemoryLayout root) {
        List<Member> out = new ArrayList<>();
        walk(root, "", 0, out, false);
        return out;
    }

    private static List<Member> groups(MemoryLayout root, String prefix, long base, List<Member> out) {
        walk(root, prefix, base, out, true);
        return out;
    }

    private static void walk(MemoryLayout layout, String prefix, long base, List<Member> out, boolean groupsOnly) {
        if (!(layout instanceof GroupLayout g)) {
            return;
        }
        long offset = 0;
        for (MemoryLayout m : g.memberLayouts()) {
            long at = base + (g instanceof StructLayout ? offset : 0);
            if (m.name().isPresent()) {
                String path = prefix.isEmpty() ? m.name().get() : prefix + "." + m.name().get();
                if (m instanceof GroupLayout) {
                    if (groupsOnly) {
                        out.add(new Member(path, at, m.byteSize()));
                    }
                    walk(m, path, at, out, groupsOnly);
                } else if (!groupsOnly) {
                    out.add(new Member(path, at, m.byteSize()));
                }
            } else if (m instanceof GroupLayout) {
                walk(m, prefix, at, out, groupsOnly);
            }
            offset += m.byteSize();
        }
    }
}
