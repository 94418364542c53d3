#!/usr/bin/env bash
# Part of `make bench` ("Speed"): how close a full check comes to the floor of
# segment inspection — a minimal single-thread C program that opens every segment with
# libavformat and reads every packet (built here with cc + pkg-config, packet-scan.c beside this
# script) — and to `cat` of the same bytes, on a 1 800-segment H.264/AAC MPEG-TS stream
# (30 minutes in 1 s segments, 256x144).
set -euo pipefail
cd "$(dirname "$0")/../../.."
command -v hyperfine >/dev/null || { echo "bench: hyperfine is needed (make bench installs it)" >&2; exit 1; }
bin=.build/release/hlscheck
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/packet-scan" Tests/Benchmarks/parts/packet-scan.c $(pkg-config --cflags --libs libavformat libavcodec libavutil)

seconds=1800
mkdir -p "$work/video"
echo "Generating ${seconds} one-second segments in $work ..."
ffmpeg -hide_banner -loglevel error -f lavfi -i "testsrc2=size=256x144:rate=25:duration=$seconds" \
    -f lavfi -i "sine=frequency=440:sample_rate=44100:duration=$seconds" \
    -c:v libx264 -preset ultrafast -g 25 -sc_threshold 0 -b:v 150k -c:a aac -b:a 64k \
    -f hls -hls_time 1 -hls_list_size 0 -hls_playlist_type vod -hls_segment_filename "$work/video/seg%d.ts" "$work/video/index.m3u8"
segments=$(ls "$work"/video/*.ts | wc -l)
echo "$segments segments, $(du -sh "$work/video" | cut -f1)"
"$work/packet-scan" "$work"/video/*.ts
hyperfine --warmup 1 --runs 5 --style basic --export-json "$work/floor.json" \
    -n "cat of the segment bytes" "cat $work/video/*.ts >/dev/null" \
    -n "C libavformat packet scan (1 thread)" "$work/packet-scan $work/video/*.ts" \
    -n "hlscheck (full check)" "$bin $work/video/index.m3u8 --fail-on never" >/dev/null
python3 - "$work/floor.json" "$segments" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
floor = results[1]
print("| command | mean ± σ | user + sys | ÷ packet scan (wall) | ÷ packet scan (CPU) |")
print("|---|---:|---:|---:|---:|")
for r in results:
    cpu = r["user"] + r["system"]
    print("| %s | %.0f ± %.0f ms | %.0f ms | %.2f× | %.2f× |" % (r["command"], r["mean"] * 1000, r["stddev"] * 1000, cpu * 1000,
          r["mean"] / floor["mean"], cpu / (floor["user"] + floor["system"])))
PY
