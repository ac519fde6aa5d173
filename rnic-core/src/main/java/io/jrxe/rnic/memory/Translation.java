package io.jrxe.rnic.memory;

/**
 * One address translation made visible, for teaching: the key's MPT entry, the iova asked for,
 * the MTT entry of its page, the page's address and the offset in that page ({@link MemoryTables#inspect};
 * a program gets one through the emulated provider's EmulatedExtension.translate). A page of an ON_DEMAND MR that
 * the NIC has not brought in has page address and address 0 ({@link #present}).
 */
public record Translation(
        int key,
        KeyKind kind,
        int pdHandle,
        String access,
        long entryIova,
        long entryLength,
        long iova,
        long mttIndex,
        long pageAddress,
        long pageOffset,
        long address) {

    /** Whether the page is in the MTT (always, for pinned memory). */
    public boolean present() {
        return pageAddress != 0;
    }

    @Override
    public String toString() {
        if (!present()) {
            return String.format("key 0x%08x (%s, PD %d, %s, iova 0x%x..0x%x) : iova 0x%x -> MTT[%d] = not present "
                    + "(on demand: the NIC brings the page in on its first access)", key, kind, pdHandle, access,
                    entryIova, entryIova + entryLength, iova, mttIndex);
        }
        return String.format("key 0x%08x (%s, PD %d, %s, iova 0x%x..0x%x) : iova 0x%x -> MTT[%d] = page 0x%x + 0x%03x = 0x%x",
                key, kind, pdHandle, access, entryIova, entryIova + entryLength, iova, mttIndex, pageAddress,
                pageOffset, address);
    }
}
