"""What docs/measure/clients-at-one-rate.sh printed, paired: python3 clients-pairs.py FILE...

For each mode and probe, SPICE's run against vegeta's of the same round: the server's CPU per request as SPICE / vegeta
(the median of the runs' Walsh averages of log-ratios, Hodges-Lehmann, and each run's ratio), and the server's
scheduling a request under each client (involuntary and voluntary context switches, migrations, time waiting for a
core), as means over the runs.
"""
import math
import re
import statistics
import sys

LINE = re.compile(r"(\d+) (\w+) +(\w+) +(\w+) +\d+ ok +server +([\d.]+).*?switches ([\d.]+) vol ([\d.]+) invol, "
                  r"([\d.]+) migrations, waited ([\d.]+)")
runs = {}
for name in sys.argv[1:]:
    block = 0
    for line in open(name, encoding="utf-8"):
        if line.startswith("Tomcat at"):
            block += 1   # each invocation's rounds are numbered from 1
        m = LINE.match(line)
        if m:
            rnd, mode, probe, tool = m.group(1, 2, 3, 4)
            runs[(name, block, rnd, mode, probe, tool)] = [float(x) for x in m.group(5, 6, 7, 8, 9)]
pairs = {}
for (name, block, rnd, mode, probe, tool), figures in runs.items():
    theirs = runs.get((name, block, rnd, mode, probe, "vegeta"))
    if tool == "spice" and theirs:
        pairs.setdefault((mode, probe), []).append((figures, theirs))
for (mode, probe), both in sorted(pairs.items()):
    logs = [math.log(ours[0] / theirs[0]) for ours, theirs in both]
    walsh = [(a + b) / 2 for i, a in enumerate(logs) for b in logs[i:]]

    def mean(i, side):
        return statistics.mean(p[side][i] for p in both)

    print(f"{mode:6} {probe:7} {len(both)} runs: server CPU SPICE / vegeta {math.exp(statistics.median(walsh)):.3f}"
          f" ({' '.join(f'{math.exp(x):.2f}' for x in logs)}); a request, SPICE / vegeta: involuntary switches"
          f" {mean(2, 0):.2f} / {mean(2, 1):.2f}, migrations {mean(3, 0):.2f} / {mean(3, 1):.2f}, voluntary"
          f" {mean(1, 0):.2f} / {mean(1, 1):.2f}, waiting for a core {mean(4, 0):.0f} / {mean(4, 1):.0f} µs")
