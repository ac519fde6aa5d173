package io.jrxe.rnic.memory;

/**
 * One address translation made visible, for teaching: the key's MPT entry, the iova asked for,
 * the MTT entry of its page, the page's address and the offset in that page ({@link MemoryTables#inspect};
 * a program gets one through the emulated provider's EmulatedExtension.translate).
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

    @Override
    public String toString() {
        return String.format("key 0x%08x (%s, PD %d, %s, iova 0x%x..0x%x) : iova 0x%x -> MTT[%d] = page 0x%x + 0x%03x = 0x%x",
                key, kind, pdHandle, access, entryIova, entryIova + entryLength, iova, mttIndex, pageAddress,
                pageOffset, address);
    }
}
