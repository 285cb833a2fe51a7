#!/usr/bin/env python3
"""h2load as N independent clients: N processes of one client at 100 req/s each (--rps 100: one request a 10 ms tick),
over h2c, their CPU window the part every process is in its measured part; prints the server's CPU per request
(its process and its children's, from /proc) over the rate h2load reports. docs/measure/h2c-arrivals.sh runs it.

Usage: h2load-processes.py URL SERVER_PID SECONDS [N]   (EVEN=1: start them a tick and a Nth of one apart; H1=1: HTTP/1.1
over a kept connection each, --h1, instead of h2c)"""
import os
import re
import subprocess
import sys
import tempfile
import time

url, server, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3])
n = int(sys.argv[4]) if len(sys.argv) > 4 else 30
even = bool(os.environ.get("EVEN"))
protocol = ["--h1", "-m", "1"] if os.environ.get("H1") else ["-m", "8"]
LEAD_IN_S = 0.5


def ticks():
    """The server's CPU, clock ticks: its process and its direct children (nginx's workers)."""
    total = 0
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if d == server or fields[1] == server:
            total += int(fields[11]) + int(fields[12])
    return total


spacing = 0.010 + 0.010 / n if even else 0.010 / n
outs, procs = [], []
t0 = time.perf_counter() + 0.05
for i in range(n):
    while time.perf_counter() < t0 + i * spacing:
        pass
    out = tempfile.TemporaryFile()
    outs.append(out)
    procs.append(subprocess.Popen(["h2load", "-c", "1", *protocol, "--rps", "100", "--warm-up-time",
                                   f"{int(LEAD_IN_S * 1000)}ms", "-D", str(seconds), url],
                                  stdout=out, stderr=subprocess.STDOUT))
time.sleep(max(0.0, t0 + LEAD_IN_S + (n - 1) * spacing - time.perf_counter()))
a, ta = ticks(), time.perf_counter()
time.sleep(max(0.0, t0 + LEAD_IN_S + seconds - time.perf_counter()))
b, tb = ticks(), time.perf_counter()
done = 0
for proc, out in zip(procs, outs):
    proc.wait()
    out.seek(0)
    m = re.search(rb"requests: \d+ total, \d+ started, \d+ done, (\d+) succeeded", out.read())
    done += int(m.group(1))
if done == 0:
    sys.exit(f"h2load: no request succeeded at {url} (h2load --h1 fails on a status line without a reason phrase)")
cpu_per_s = (b - a) / os.sysconf("SC_CLK_TCK") / (tb - ta)
print(f"h2load{' --h1' if protocol[0] == '--h1' else ''}, {n} processes x 1 client{' (started evenly)' if even else ''}: server "
      f"{1e6 * cpu_per_s / (done / seconds):.1f} us/req, n={done}")
