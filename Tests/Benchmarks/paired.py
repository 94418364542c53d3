#!/usr/bin/env python3
"""Paired timing for `make bench`: runs the commands in turn, ROUNDS times (after one warm-up
round), and gives each command's median and the median of its per-round ratio to the first one.

hyperfine runs all of one command's runs before the next command's, so on a machine whose speed
drifts (this project's CI machine is a VM; the same binary measured 331 ms and 421 ms in two
hyperfine runs ten minutes apart) the ratio between two commands drifts with it. Alternating
them round by round and taking the ratio within each round cancels that drift.

usage: paired.py ROUNDS ['--prepare=SHELL'] 'LABEL=COMMAND' ...   (the first is the reference)
With PAIRED_GROUP=N in the environment, each command's reference is the first of its group of
N (e.g. 2: each binary's loopback run against its own local run in the same round).
A `--prepare=SHELL` before a command runs before each of its runs, untimed (a fresh file system
for a command that writes, say).
"""
import os, resource, shlex, statistics, subprocess, sys, time

rounds = int(sys.argv[1])
labels, commands, prepares = [], [], []
prepare = None
for argument in sys.argv[2:]:
    if argument.startswith("--prepare="):
        prepare = argument[len("--prepare="):]
        continue
    label, command = argument.split("=", 1)
    labels.append(label)
    commands.append(command)
    prepares.append(prepare)
    prepare = None
wall = [[] for _ in commands]
cpu = [[] for _ in commands]
for round_number in range(rounds + 1):
    for index, command in enumerate(commands):
        if prepares[index]:
            subprocess.run(prepares[index], shell=True, check=True, stdout=subprocess.DEVNULL)
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
group = int(os.environ.get("PAIRED_GROUP", "0")) or len(commands)
reference = labels[0] if group == len(commands) else f"the first of each {group}"
print(f"| command | median (wall) | ÷ {reference} | CPU user+sys | ÷ {reference} |")
print("|---|---:|---:|---:|---:|")
for index, label in enumerate(labels):
    first = index - index % group
    wall_ratio = statistics.median(wall[index][k] / wall[first][k] for k in range(rounds))
    cpu_ratio = statistics.median(cpu[index][k] / cpu[first][k] for k in range(rounds))
    print(f"| {label} | {statistics.median(wall[index]) * 1000:.0f} ms | {wall_ratio:.2f}× "
          f"| {statistics.median(cpu[index]) * 1000:.0f} ms | {cpu_ratio:.2f}× |")
