#!/usr/bin/env bash
# `make bench`: runs every benchmark part in Tests/Benchmarks/parts/ in name order, each a
# self-contained script that generates its own media, times hlscheck side by side with what a
# user would otherwise run, and prints a Markdown table (docs/benchmarks.md records them).
#   make bench                       every part
#   BENCH_PARTS=segments make bench  only the parts whose file name contains "segments"
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v hyperfine >/dev/null || { echo "bench: hyperfine is needed (make bench installs it)" >&2; exit 1; }
echo "Machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -m); $(date -u +%Y-%m-%d)"
for part in Tests/Benchmarks/parts/*.sh; do
    case "$(basename "$part")" in *"${BENCH_PARTS:-}"*) ;; *) continue ;; esac
    echo
    echo "=== $(basename "$part" .sh)"
    bash "$part"
done
