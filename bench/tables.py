#!/usr/bin/env python3
"""Markdown tables from loadgen's JSON lines: the per-metric median of each
(server, concurrency) cell, then ratios for the given pairs.

usage: tables.py RESULTS.jsonl GOAL OURS:THEM [OURS:THEM ...]
GOAL is the throughput ratio the project aims for (printed in the header).
"""
import json
import statistics
import sys
from collections import defaultdict

path, goal, pairs = sys.argv[1], sys.argv[2], [p.split(":") for p in sys.argv[3:]]
rows = [json.loads(line) for line in open(path)]
runs = defaultdict(list)
for r in rows:
    runs[(r["server"], r["concurrency"])].append(r)
servers = list(dict.fromkeys(r["server"] for r in rows))
concs = sorted({r["concurrency"] for r in rows})


def med(key, rs):
    return statistics.median(r[key] for r in rs)


reps = max(len(rs) for rs in runs.values())
transport = rows[0].get("transport", "stdio")
print()
print(f"tool `{rows[0]['tool']}`, {transport}, median of {reps} runs per cell")
print()
print("| server | protocol | concurrency | requests | req/s | p50 µs | p99 µs | max µs | peak RSS KiB "
      "| server CPU µs/req | loadgen CPU µs/req | threads |")
print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for c in concs:
    for s in servers:
        rs = runs[(s, c)]
        if not rs:
            continue
        print(f"| {s} | {rs[0].get('protocol', '')} | {c} | {rs[0]['requests']} | {med('rps', rs):.0f} "
              f"| {med('p50_us', rs):.1f} | {med('p99_us', rs):.1f} | {med('max_us', rs):.1f} "
              f"| {med('peak_rss_kib', rs):.0f} | {med('server_cpu_us_per_req', rs):.1f} "
              f"| {med('loadgen_cpu_us_per_req', rs):.1f} | {med('server_threads', rs):.0f} |")

pairs = [(o, t) for o, t in pairs if o in servers and t in servers]
if pairs:
    print()
    print(f"| ours | vs | concurrency | throughput ours/them (≥ {goal} is the goal) "
          "| p99 ours/them (< 1 is better) | peak RSS ours/them (< 1 is better) |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for ours, them in pairs:
        for c in concs:
            o, t = runs[(ours, c)], runs[(them, c)]
            if not o or not t:
                continue
            print(f"| {ours} | {them} | {c} | {med('rps', o) / med('rps', t):.2f} "
                  f"| {med('p99_us', o) / med('p99_us', t):.2f} "
                  f"| {med('peak_rss_kib', o) / med('peak_rss_kib', t):.2f} |")

# Warnings about the figures themselves: a run of under two seconds is at
# the mercy of one hiccup of a shared VM, and repetitions of one cell that
# disagree by more than a fifth say the medians above are not settled.
SHORT_RUN_S = 2.0
SPREAD = 1.2
short = []
spread = []
for c in concs:
    for s in servers:
        rs = runs[(s, c)]
        if not rs:
            continue
        seconds = min((r["requests"] / r["rps"] for r in rs if r["rps"] > 0), default=None)
        if seconds is not None and seconds < SHORT_RUN_S:
            short.append(f"{s} at {c} ({seconds:.1f} s)")
        rates = [r["rps"] for r in rs]
        if len(rates) > 1 and min(rates) > 0 and max(rates) / min(rates) > SPREAD:
            spread.append(f"{s} at {c} ({min(rates):.0f}–{max(rates):.0f} req/s)")
if short:
    print()
    print(f"Runs shorter than {SHORT_RUN_S:.0f} s (noisy; raise REQ / REQ_C1): " + ", ".join(short) + ".")
if spread:
    print()
    print(f"Repetitions more than {SPREAD - 1:.0%} apart: " + ", ".join(spread) + ".")
