#!/usr/bin/env bash
# Part of `make bench`: a media playlist with N `# hlscheck-disable-next-line`
# directives (one before each of N segments, each excusing segment-unreadable), N = 10 000,
# 20 000, 40 000, checked with --playlist-only. Linear means 40 000 costs 4× 10 000 (suppressions are
# indexed by line, so each finding looks up its own line only).
#   HLSCHECK_BIN=path   the binary to measure (default .build/release/hlscheck)
set -euo pipefail
cd "$(dirname "$0")/../../.."
bin=${HLSCHECK_BIN:-.build/release/hlscheck}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for n in 10000 20000 40000; do
    python3 - "$work/d$n.m3u8" "$n" <<'PY'
import sys
path, n = sys.argv[1], int(sys.argv[2])
with open(path, "w") as out:
    out.write("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n")
    for i in range(n):
        out.write(f"# hlscheck-disable-next-line segment-unreadable\n#EXTINF:6.0,\nseg{i}.ts\n")
    out.write("#EXT-X-ENDLIST\n")
PY
done
hyperfine --warmup 1 --runs 5 --style basic --export-json "$work/results.json" \
  -n "10 000 directives" "$bin $work/d10000.m3u8 --playlist-only --max-segments 100000 || true" \
  -n "20 000 directives" "$bin $work/d20000.m3u8 --playlist-only --max-segments 100000 || true" \
  -n "40 000 directives" "$bin $work/d40000.m3u8 --playlist-only --max-segments 100000 || true"
echo
python3 - "$work/results.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
base = results[0]["user"] + results[0]["system"]
print("| playlist | median (wall) | CPU user+sys | ÷ 10 000 |")
print("|---|---:|---:|---:|")
for r in results:
    cpu = r["user"] + r["system"]
    print(f"| {r['command']} | {r['median'] * 1000:.0f} ms | {cpu * 1000:.0f} ms | {cpu / base:.1f}× |")
PY
