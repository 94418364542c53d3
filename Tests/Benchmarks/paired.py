#!/usr/bin/env python3
"""Paired timing for `make bench`: runs the commands in turn, ROUNDS times (after one warm-up
round), and gives each command's median and the median of its per-round ratio to the first one.

hyperfine runs all of one command's runs before the next command's, so on a machine whose speed
drifts (this project's CI machine is a VM; the same binary measured 331 ms and 421 ms in two
hyperfine runs ten minutes apart) the ratio between two commands drifts with it. Alternating
them round by round and taking the ratio within each round cancels that drift.

usage: paired.py ROUNDS 'LABEL=COMMAND' 'LABEL=COMMAND' ...   (the first is the reference)
"""
import resource, shlex, statistics, subprocess, sys, time

rounds = int(sys.argv[1])
labels, commands = zip(*(argument.split("=", 1) for argument in sys.argv[2:]))
wall = [[] for _ in commands]
cpu = [[] for _ in commands]
for round_number in range(rounds + 1):
    for index, command in enumerate(commands):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(shlex.split(command), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        elapsed = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if round_number == 0:
            continue
        wall[index].append(elapsed)
        cpu[index].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)

print(f"Paired: {rounds} rounds, the commands alternating; ratios are medians of per-round ratios.")
print()
print(f"| command | median (wall) | ÷ {labels[0]} | CPU user+sys | ÷ {labels[0]} |")
print("|---|---:|---:|---:|---:|")
for index, label in enumerate(labels):
    wall_ratio = statistics.median(wall[index][k] / wall[0][k] for k in range(rounds))
    cpu_ratio = statistics.median(cpu[index][k] / cpu[0][k] for k in range(rounds))
    print(f"| {label} | {statistics.median(wall[index]) * 1000:.0f} ms | {wall_ratio:.2f}× "
          f"| {statistics.median(cpu[index]) * 1000:.0f} ms | {cpu_ratio:.2f}× |")
