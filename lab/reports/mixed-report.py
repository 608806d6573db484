#!/usr/bin/env python3
"""The report of lab/experiments/mixed.sh: per size and pair (server implementation, then client), the message rates of
its runs, their median and best; then which side moves the rate: Java client over C client with each server, and
Java server over C server with each client (ratios of the medians). Under TCG the host slows a whole run now and
then to 0.5-0.7 of the others (C pairs alone, two boots: 11 of 72 runs), so the client sides are compared
again over the runs within 15% of the size's best run: the runs the host did not slow."""
import statistics
import sys

FAST = 0.85
rates = {}
for line in open(sys.argv[1]):
    f = line.split()
    # SIZE PAIR ROUND then the data row: #bytes #iterations BW-peak BW-average MsgRate
    if len(f) >= 8:
        rates.setdefault(int(f[0]), {}).setdefault(f[1], []).append(float(f[7]))


def ratio(a, b):
    return f"{a / b:.3f}" if a and b else "n/a"


for size in sorted(rates, reverse=True):
    r = rates[size]
    print(f"-s {size} -D 8: Mpps per run (server, client; median, best)")
    med = {}
    for pair in ("CC", "CJ", "JC", "JJ"):
        runs = r.get(pair, [])
        if runs:
            med[pair] = statistics.median(runs)
            print(f"  {pair}  {' '.join(f'{x:.6f}' for x in runs)}  median {med[pair]:.6f}  best {max(runs):.6f}")
    print(f"  Java client / C client: with a C server {ratio(med.get('CJ'), med.get('CC'))},"
          f" with a Java server {ratio(med.get('JJ'), med.get('JC'))}")
    print(f"  Java server / C server: with a C client {ratio(med.get('JC'), med.get('CC'))},"
          f" with a Java client {ratio(med.get('JJ'), med.get('CJ'))}")
    floor = FAST * max(x for runs in r.values() for x in runs)
    fast = {side: [x for pair in r if pair[1] == side for x in r[pair] if x >= floor] for side in "CJ"}
    slow = sum(len(runs) for runs in r.values()) - len(fast["C"]) - len(fast["J"])
    c_fast = statistics.median(fast["C"]) if fast["C"] else 0
    j_fast = statistics.median(fast["J"]) if fast["J"] else 0
    print(f"  Runs within {100 - round(FAST * 100)}% of the best ({slow} slowed left out): C clients"
          f" {len(fast['C'])} median {c_fast:.6f}, Java clients {len(fast['J'])} median {j_fast:.6f};"
          f" Java/C {ratio(j_fast, c_fast)}")
