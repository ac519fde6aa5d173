#!/usr/bin/python3
"""ICRC oracle for jrxe's tests, built on scapy's RoCE layer (scapy.contrib.roce, IPv4 only).

  scapy_icrc.py check FILE   FILE holds one Ethernet frame per line in hex; prints, per frame,
                             "ok" when scapy computes the same ICRC as the frame carries,
                             else "bad <stored> <computed>".
  scapy_icrc.py pcap FILE    FILE is a capture (pcap or pcapng, Ethernet); prints, per packet to UDP
                             port 4791, "ok <IP identification>" or "bad <id> <stored> <computed>";
                             over IPv6, which scapy computes no ICRC for, "ipv6 unchecked".
  scapy_icrc.py pcap-by-source FILE
                             the same, each line after "pcap" with the packet's source address.
  scapy_icrc.py make N       prints N Ethernet frames in hex, built by scapy with ICRCs it computed.
"""
import random
import sys

from scapy.all import Ether, IP, IPv6, UDP, Raw, raw, rdpcap
from scapy.contrib.roce import BTH


def icrcs(frame):
    """The ICRC a frame carries and the one scapy computes for it."""
    pkt = Ether(frame)
    pkt[BTH].icrc = None
    return frame[-4:], raw(pkt)[-4:]


def check(path):
    with open(path) as f:
        for line in f:
            stored, computed = icrcs(bytes.fromhex(line.strip()))
            print("ok" if computed == stored else "bad %s %s" % (stored.hex(), computed.hex()))


def check_capture(path, by_source):
    for pkt in rdpcap(path):
        if UDP not in pkt or pkt[UDP].dport != 4791:
            continue
        if IP not in pkt:
            print("ipv6 unchecked" + (" " + pkt[IPv6].src if by_source else ""))
            continue
        stored, computed = icrcs(raw(pkt))
        ident = pkt[IP].id
        verdict = "ok %d" % ident if computed == stored else "bad %d %s %s" % (ident, stored.hex(), computed.hex())
        print(verdict.replace(" ", " %s " % pkt[IP].src, 1) if by_source else verdict)


def make(n):
    rnd = random.Random(4791)
    for i in range(n):
        payload = bytes(rnd.getrandbits(8) for _ in range(rnd.choice([0, 4, 256, 1024])))
        pkt = (Ether(src="52:54:00:77:00:02", dst="52:54:00:77:00:03")
               / IP(src="10.77.0.2", dst="10.77.0.3", flags="DF", id=rnd.getrandbits(16), ttl=64)
               / UDP(sport=49152 + rnd.getrandbits(14), dport=4791, chksum=0)
               / BTH(opcode=4, dqpn=rnd.getrandbits(24), psn=rnd.getrandbits(24), ackreq=1)
               / Raw(payload))
        print(raw(pkt).hex())


if __name__ == "__main__":
    if sys.argv[1] == "check":
        check(sys.argv[2])
    elif sys.argv[1] in ("pcap", "pcap-by-source"):
        check_capture(sys.argv[2], sys.argv[1] == "pcap-by-source")
    else:
        make(int(sys.argv[2]))
