#!/usr/bin/env bash
# Part of `make bench`: many streams in one run. Copies of the compliant sample (9 segments
# each): --jobs 1 against the default (one stream per core), and peak RSS for 1, 10 and 50
# streams, text only and with a JSON report too (memory must stay flat in the number of streams).
set -euo pipefail
cd "$(dirname "$0")/../../.."
command -v hyperfine >/dev/null || { echo "bench: hyperfine is needed (make bench installs it)" >&2; exit 1; }
bin=.build/release/hlscheck
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for count in 1 10 50; do
    mkdir -p "$work/$count"
    for i in $(seq 1 "$count"); do cp -r Samples/compliant "$work/$count/s$i"; done
done
hyperfine --warmup 1 --runs 5 --style basic \
  -n "50 streams, --jobs 1" "$bin $work/50 --jobs 1 >/dev/null" \
  -n "50 streams, default jobs ($(nproc))" "$bin $work/50 >/dev/null"
echo
echo "| streams | text: wall s | text: CPU % | text: peak RSS MB | text + JSON: peak RSS MB |"
echo "|---|---|---|---|---|"
for count in 1 10 50; do
    read -r wall cpu rss < <( { /usr/bin/time -f "%e %P %M" "$bin" "$work/$count" >/dev/null; } 2>&1 | tail -1)
    read -r _ _ rssjson < <( { /usr/bin/time -f "%e %P %M" "$bin" "$work/$count" --format json >/dev/null; } 2>&1 | tail -1)
    echo "| $count | $wall | $cpu | $((rss / 1024)) | $((rssjson / 1024)) |"
done
