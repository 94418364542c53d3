#!/usr/bin/env bash
# Part of `make bench`: start-up. Commands that read no media (`--version`, `--help`,
# `rules`, a `--playlist-only` check of a one-segment playlist) and a full check of
# Samples/compliant, each run 40 times without a shell (hyperfine -N). FFmpeg and libxml2 are
# loaded with dlopen on first use (Sources/CLazyLibraries): the first four never map them. Two
# C programs give the floor: one that only returns from main, one that also links FFmpeg's five
# libraries and libxml2 (what the dynamic loader would cost every command if hlscheck linked them).
#   HLSCHECK_BIN=path        the binary to measure (default .build/release/hlscheck)
#   HLSCHECK_BASELINE=path   another binary, measured side by side (e.g. a build of main)
set -euo pipefail
cd "$(dirname "$0")/../../.."
bin=$(realpath "${HLSCHECK_BIN:-.build/release/hlscheck}")
baseline=${HLSCHECK_BASELINE:+$(realpath "$HLSCHECK_BASELINE")}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:6.0,\nseg0.ts\n#EXT-X-ENDLIST\n' > "$work/one.m3u8"
echo 'int main(void) { return 0; }' > "$work/empty.c"
cc -O2 -o "$work/empty" "$work/empty.c"
cc -O2 -o "$work/linked" "$work/empty.c" -Wl,--no-as-needed \
  $(pkg-config --libs libavformat libavcodec libavutil libswscale libswresample libxml-2.0)
compliant=$(realpath Samples/compliant/master.m3u8)
scenarios=(
  "--version|--version"
  "--help|--help"
  "rules|rules"
  "--playlist-only, 1 segment|$work/one.m3u8 --playlist-only"
  "full check, Samples/compliant|$compliant"
)
commands=(-n "C: return from main" "$work/empty" -n "C: return from main, FFmpeg + libxml2 linked" "$work/linked")
for scenario in "${scenarios[@]}"; do
    name=${scenario%%|*} arguments=${scenario#*|}
    [ -n "$baseline" ] && commands+=(-n "baseline: $name" "$baseline $arguments")
    commands+=(-n "hlscheck: $name" "$bin $arguments")
done
hyperfine -N --warmup 3 --runs 40 --style basic --export-json "$work/results.json" "${commands[@]}"
echo
python3 - "$work/results.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
print("| command | median (wall) | mean CPU user+sys |")
print("|---|---:|---:|")
for r in results:
    print(f"| {r['command']} | {r['median'] * 1000:.1f} ms | {(r['user'] + r['system']) * 1000:.1f} ms |")
PY
