#!/usr/bin/env python3
"""Reads the -U samples of latency clients (files IMPL-ROUND.out) and prints, per run and per implementation,
how often the run stalled and how far apart the stalls were: a stall is a sample over STALL_FACTOR times the
run's median. usage: stalls-report.py TOOL FILE..."""
import os
import statistics
import sys

STALL_FACTOR = 3.0


def samples(path):
    values, inside = [], False
    with open(path) as f:
        for line in f:
            if line.startswith("#, usec"):
                inside = True
            elif inside:
                parts = line.strip().split(", ")
                if len(parts) != 2 or not parts[0].isdigit():
                    break
                values.append(float(parts[1]))
    return values


def run_figures(values, rtt_factor):
    median = statistics.median(values)
    # perftest's p99: the sorted samples less the two largest, at index ceil(n * 0.99).
    ordered = sorted(values)[:-2]
    p99 = ordered[min(len(ordered) - 1, -(-len(ordered) * 99 // 100))]
    t, stalls = 0.0, []
    for v in values:
        t += v * rtt_factor
        if v > STALL_FACTOR * median:
            stalls.append((t, v))
    gaps = [(b[0] - a[0]) / 1000 for a, b in zip(stalls, stalls[1:])]
    return {
        "median": median, "p99": p99, "ms": t / 1000, "stalls": len(stalls),
        "per10ms": 10 * len(stalls) / (t / 1000), "gap": statistics.median(gaps) if gaps else float("nan"),
        "size": statistics.median(v for _, v in stalls) if stalls else float("nan"),
    }


def main():
    tool, files = sys.argv[1], sys.argv[2:]
    rtt_factor = 1 if ("read" in tool or "atomic" in tool) else 2
    by_impl = {}
    print(f"stalls: {tool}: a stall is a sample over {STALL_FACTOR:g} x its run's median; times in usec, one way")
    print("stalls: run       samples  median    p99  run ms  stalls  per 10 ms  median gap ms  median stall")
    for path in sorted(files):
        values = samples(path)
        name = os.path.basename(path).removesuffix(".out")
        if len(values) < 3:
            print(f"stalls: {name:9s} no samples")
            continue
        r = run_figures(values, rtt_factor)
        by_impl.setdefault(name.split("-")[0], []).append(r)
        print(f"stalls: {name:9s} {len(values):7d} {r['median']:7.2f} {r['p99']:6.1f} {r['ms']:7.1f} {r['stalls']:7d}"
              f" {r['per10ms']:10.2f} {r['gap']:14.2f} {r['size']:13.1f}")
    for impl, runs in by_impl.items():
        m = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        print(f"stalls: {impl} median of {len(runs)} runs: median {m['median']:.2f}, p99 {m['p99']:.1f}, "
              f"run {m['ms']:.1f} ms, {m['per10ms']:.2f} stalls per 10 ms, {m['gap']:.2f} ms apart, "
              f"{m['size']:.1f} usec each")


if __name__ == "__main__":
    main()
