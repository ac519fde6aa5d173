"""Checks the ICRC of every RoCEv2 packet over IPv4 in a capture with scapy's RoCE layer.

Usage: python3 roce_icrc.py CAPTURE

For each packet to UDP port 4791 that carries a BTH over IPv4, scapy.contrib.roce recomputes the
ICRC (its BTH.compute_icrc masks what the spec masks) and it is compared with the four bytes the
packet ends with. scapy computes the ICRC for IPv4 only, so IPv6 packets are counted, not checked.
Prints one line per IPv4 source, "ipv4 SRC ok=N bad=N", then "ipv6 unchecked=N", and one line
per wrong ICRC; exits 1 when any ICRC is wrong or no IPv4 RoCE packet was found.
"""
import sys
from collections import Counter

from scapy.all import IP, IPv6, UDP, rdpcap
from scapy.contrib.roce import BTH


def main(path):
    ok = Counter()
    bad = Counter()
    ipv6 = 0
    problems = []
    for frame, pkt in enumerate(rdpcap(path), 1):
        if UDP not in pkt or pkt[UDP].dport != 4791 or BTH not in pkt:
            continue
        if IPv6 in pkt:
            ipv6 += 1
            continue
        if IP not in pkt:
            continue
        udp = bytes(pkt[UDP])[:pkt[UDP].len]   # without any Ethernet padding
        captured = udp[-4:]
        computed = pkt[BTH].compute_icrc(None)
        src = pkt[IP].src
        if captured == computed:
            ok[src] += 1
        else:
            bad[src] += 1
            problems.append("bad icrc in frame %d from %s (ip id %d): captured %s, scapy %s"
                            % (frame, src, pkt[IP].id, captured.hex(), computed.hex()))
    for src in sorted(set(ok) | set(bad)):
        print("ipv4 %s ok=%d bad=%d" % (src, ok[src], bad[src]))
    print("ipv6 unchecked=%d" % ipv6)
    for p in problems[:20]:
        print(p)
    return 1 if problems or not ok else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
