"""When a client's connections reach a server on loopback: python3 syn-arrivals.py PORT SECONDS, as root.

Every SYN to PORT arriving on lo for SECONDS, stamped by the kernel (SO_TIMESTAMPNS) as it arrived, and the gaps
between them: their spread (coefficient of variation and deciles) and how many followed the one before within 100 µs
(a burst); and, per connection, how long after its SYN the request's first byte arrived (a client that connects and
writes in one go sends it at once; one that is scheduled out between the two leaves the server's thread to wake for
the connection and again for the request). docs/measure/arrivals-at-one-rate.sh runs it beside SPICE's open loop and
vegeta.
"""
import socket
import struct
import sys
import time

port, seconds = int(sys.argv[1]), float(sys.argv[2])
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.ntohs(0x0003))
s.bind(("lo", 0))
s.setsockopt(socket.SOL_SOCKET, 35, 1)  # SO_TIMESTAMPNS
s.settimeout(0.2)
times = []
syn = {}     # the SYN's time, by the client's port, until the request's first byte
first = []   # the request's first byte after its SYN, s
end = time.time() + seconds
while time.time() < end:
    try:
        data, anc, _, addr = s.recvmsg(128, 64)
    except socket.timeout:
        continue
    if addr[2] == 4:   # PACKET_OUTGOING: loopback shows each packet leaving and arriving
        continue
    if len(data) < 54 or data[12:14] != b"\x08\x00" or data[23] != 6:
        continue
    ihl = (data[14] & 0x0F) * 4
    tcp = 14 + ihl
    sport, dport = struct.unpack("!HH", data[tcp:tcp + 4])
    flags = data[tcp + 13]
    payload = struct.unpack("!H", data[16:18])[0] - ihl - (data[tcp + 12] >> 4) * 4
    if dport != port:
        continue
    stamp = next(struct.unpack("qq", value[:16]) for level, kind, value in anc if kind == 35)
    stamp = stamp[0] + stamp[1] / 1e9
    if flags & 0x02 and not flags & 0x10:
        times.append(stamp)
        syn[sport] = stamp
    elif payload > 0 and sport in syn:
        first.append(stamp - syn.pop(sport))
times.sort()
first.sort()
gaps = [b - a for a, b in zip(times, times[1:])]
if len(gaps) < 10:
    print("too few SYNs:", len(times)); sys.exit(1)
n = len(gaps); mean = sum(gaps) / n
sd = (sum((g - mean) ** 2 for g in gaps) / n) ** 0.5
gs = sorted(gaps)
q = lambda p: gs[min(n - 1, int(p * n))] * 1e6
close = sum(1 for g in gaps if g < 100e-6) / n
print(f"{len(times)} SYNs, mean gap {mean*1e6:.0f} µs, cv {sd/mean:.2f}, p10 {q(.1):.0f} p50 {q(.5):.0f} p90 {q(.9):.0f} µs, "
      f"within 100 µs of the one before {100*close:.1f} %; the request's first byte after its SYN: p50 "
      f"{first[len(first) // 2] * 1e6:.0f} p90 {first[int(.9 * len(first))] * 1e6:.0f} µs")
