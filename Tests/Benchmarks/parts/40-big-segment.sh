#!/usr/bin/env bash
# Part of `make bench`: one ~200 MB MPEG-TS segment (1080p H.264 + AAC), checked by
# hlscheck, against the floor — a minimal C program reading the same file through libavformat's
# file protocol (avformat_open_input + av_read_frame, Tests/Benchmarks/avformat-floor.c).
# Time (hyperfine medians) and peak RSS (/usr/bin/time -f %M beside `hlscheck inspect` and
# ffprobe, and getrusage via python in the timing table).
#   HLSCHECK_BIN=path   the binary to measure (default .build/release/hlscheck)
#   HLSCHECK_BASELINE=path  another binary (e.g. main's) measured in the same hyperfine run
#   BENCH_WORK=folder   keep the generated media there and reuse it on the next run
set -euo pipefail
cd "$(dirname "$0")/../../.."
bin=${HLSCHECK_BIN:-.build/release/hlscheck}
if [ -n "${BENCH_WORK:-}" ]; then work=$BENCH_WORK; mkdir -p "$work"; else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi

cc -O2 -o "$work/avformat-floor" Tests/Benchmarks/avformat-floor.c $(pkg-config --cflags --libs libavformat libavcodec libavutil)

big="$work/big/seg0.ts"
if [ ! -s "$big" ]; then
    mkdir -p "$work/big"
    echo "Generating a ~200 MB segment in $work/big ..."
    # 10 s of 1080p at ~20 Mbit/s, then looped with stream copy (continuous timestamps) to ~200 MB.
    ffmpeg -hide_banner -loglevel error -f lavfi -i "testsrc2=size=1920x1080:rate=25:duration=10" \
      -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=10" \
      -c:v libx264 -preset ultrafast -g 50 -b:v 20M -maxrate 20M -bufsize 20M -c:a aac -b:a 128k \
      -f mpegts "$work/clip.ts"
    clip=$(stat -c %s "$work/clip.ts")
    loops=$(( 200000000 / clip ))
    ffmpeg -hide_banner -loglevel error -stream_loop "$loops" -i "$work/clip.ts" -c copy -f mpegts "$big"
    rm -f "$work/clip.ts"
fi
duration=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$big")
cat > "$work/big/index.m3u8" <<M3U8
#EXTM3U
#EXT-X-VERSION:3
#EXT-X-TARGETDURATION:$(python3 -c "import math; print(math.ceil($duration))")
#EXT-X-PLAYLIST-TYPE:VOD
#EXTINF:$duration,
seg0.ts
#EXT-X-ENDLIST
M3U8
echo "segment: $(stat -c %s "$big") bytes, $duration s"
"$work/avformat-floor" "$big"

# Peak RSS of one run, in MB (getrusage of the child; no /usr/bin/time needed).
peak() {
    python3 - "$@" <<'PY'
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(f"{resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024:.0f}")
PY
}
# Peak RSS side by side, as a user measures it (/usr/bin/time -f %M, in KB): the check of the
# media playlist must hold the segment as `hlscheck inspect` and ffprobe do, through fixed
# buffers, never whole (docs/security.md, "Segments in bounded memory"; under 64 MB).
if [ -x /usr/bin/time ]; then
    rss_of() { /usr/bin/time -f "%M" -o "$work/rss" "$@" >/dev/null 2>&1 || true; echo $(( $(tail -1 "$work/rss") / 1024 )); }
    echo "| command (segment: $(( $(stat -c %s "$big") / 1000000 )) MB) | peak RSS |"
    echo "|---|---:|"
    echo "| hlscheck (check of the media playlist) | $(rss_of "$bin" "$work/big/index.m3u8" --max-segment-bytes 1000000000) MB |"
    echo "| hlscheck inspect (the segment) | $(rss_of "$bin" inspect "$big" --max-segment-bytes 1000000000) MB |"
    echo "| ffprobe -show_packets | $(rss_of ffprobe -v error -show_packets "$big") MB |"
    echo "| C floor (avformat_open_input + av_read_frame) | $(rss_of "$work/avformat-floor" "$big") MB |"
    echo
fi
floor_rss=$(peak "$work/avformat-floor" "$big")
check_rss=$(peak "$bin" "$work/big/index.m3u8" --max-segment-bytes 1000000000)
baseline=()
if [ -n "${HLSCHECK_BASELINE:-}" ]; then
    baseline_rss=$(peak "$HLSCHECK_BASELINE" "$work/big/index.m3u8" --max-segment-bytes 1000000000)
    baseline=(-n "baseline hlscheck ($HLSCHECK_BASELINE)" "$HLSCHECK_BASELINE $work/big/index.m3u8 --max-segment-bytes 1000000000 || true")
fi
hyperfine --warmup 1 --runs 7 --style basic --export-json "$work/results.json" \
  -n "C floor: avformat_open_input + av_read_frame" "$work/avformat-floor $big" \
  -n "hlscheck media playlist (one 200 MB segment)" "$bin $work/big/index.m3u8 --max-segment-bytes 1000000000 || true" \
  "${baseline[@]}"
echo
python3 - "$work/results.json" "$floor_rss" "$check_rss" ${baseline_rss:-} <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
rss = sys.argv[2:]
floor = results[0]["median"]
floor_cpu = results[0]["user"] + results[0]["system"]
# On a shared machine wall time mostly measures the queue for a core; CPU time (user + system,
# hyperfine's means) is the cost of the work itself.
print("| command | median (wall) | ÷ floor | CPU user+sys | ÷ floor | peak RSS |")
print("|---|---:|---:|---:|---:|---:|")
for r, m in zip(results, rss):
    cpu = r["user"] + r["system"]
    print(f"| {r['command']} | {r['median'] * 1000:.0f} ms | {r['median'] / floor:.2f}× | {cpu * 1000:.0f} ms | {cpu / floor_cpu:.2f}× | {m} MB |")
PY
echo
# The same commands alternating round by round (Tests/Benchmarks/paired.py): the figure the
# 1.2x target is judged by, since hyperfine's back-to-back runs drift with the machine.
paired=("floor=$work/avformat-floor $big" "hlscheck=$bin $work/big/index.m3u8 --max-segment-bytes 1000000000")
[ -n "${HLSCHECK_BASELINE:-}" ] && paired+=("baseline=$HLSCHECK_BASELINE $work/big/index.m3u8 --max-segment-bytes 1000000000")
python3 Tests/Benchmarks/paired.py "${BENCH_PAIRED_ROUNDS:-21}" "${paired[@]}"
