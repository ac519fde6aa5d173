package io.jrxe.verbs;


/** What ibv_query_port tells: state, MTUs, link layer, table sizes. */
public record PortInfo(String state, Mtu maxMtu, Mtu activeMtu, String linkLayer, int gidTableLength,
                       int pkeyTableLength) {
}
