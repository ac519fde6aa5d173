#!/usr/bin/python3
"""ICRC oracle for jrxe's tests, built on scapy's RoCE layer (scapy.contrib.roce, IPv4 only).

  scapy_icrc.py check FILE   FILE holds one Ethernet frame per line in hex; prints, per frame,
                             "ok" when scapy computes the same ICRC as the frame carries,
                             else "bad <stored> <computed>".
  scapy_icrc.py make N       prints N Ethernet frames in hex, built by scapy with ICRCs it computed.
"""
import random
import sys

from scapy.all import Ether, IP, UDP, Raw, raw
from scapy.contrib.roce import BTH


def check(path):
    with open(path) as f:
        for line in f:
            frame = bytes.fromhex(line.strip())
            pkt = Ether(frame)
            stored = frame[-4:]
            pkt[BTH].icrc = None
            computed = raw(pkt)[-4:]
            print("ok" if computed == stored else "bad %s %s" % (stored.hex(), computed.hex()))


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
    else:
        make(int(sys.argv[2]))
