#!/usr/bin/env bash
# Part of `make bench`: the same 600-segment stream checked from local files and served over
# loopback HTTP/1.1 by nginx (keep-alive, sendfile: a server a user would really have, and one
# that costs little CPU next to the checker on a 2-core machine), side by side in one hyperfine
# run. Target: remote within 1.5x of local, because fetching overlaps inspecting.
#   HLSCHECK_BIN=...       the binary measured (default .build/release/hlscheck)
#   HLSCHECK_BASELINE=...  another binary timed in the same run (e.g. main's), rows "baseline"
set -euo pipefail
cd "$(dirname "$0")/../../.."
command -v hyperfine >/dev/null || { echo "bench: hyperfine is needed (make bench installs it)" >&2; exit 1; }
nginx=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$nginx" ] || { echo "bench: nginx is needed (make bench installs nginx-light)" >&2; exit 1; }

work=$(mktemp -d)
server_pid=""
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
seconds=1200
mkdir -p "$work/www/audio" "$work/nginx"
echo "Generating a ${seconds} s audio-only stream of 2 s segments in $work ..."
ffmpeg -hide_banner -loglevel error -f lavfi -i "sine=frequency=440:sample_rate=44100:duration=$seconds" \
  -c:a aac -b:a 32k -ac 2 -f hls -hls_time 2 -hls_playlist_type vod \
  -hls_segment_filename "$work/www/audio/seg%d.ts" "$work/www/audio/index.m3u8"
cat > "$work/www/master.m3u8" <<M3U8
#EXTM3U
#EXT-X-VERSION:3
#EXT-X-STREAM-INF:BANDWIDTH=50000,CODECS="mp4a.40.2"
audio/index.m3u8
M3U8
segments=$(ls "$work"/www/audio/*.ts | wc -l)
echo "$segments segments, $(du -sh "$work/www" | cut -f1)"

# nginx on a free loopback port (Tests/Benchmarks/nginx-loopback.sh).
. Tests/Benchmarks/nginx-loopback.sh
chmod a+rx "$work"   # the worker (nobody) passes through to the served folder
start_nginx "$work/www" "$work/nginx" off master.m3u8
port=$nginx_port
server_pid=$nginx_pid

bin=${HLSCHECK_BIN:-.build/release/hlscheck}
url="http://127.0.0.1:$port/master.m3u8"
echo "What hlscheck finds (local, then remote):"
"$bin" "$work/www/master.m3u8" | tail -1 | sed "s|$work|STREAM|g" || true
"$bin" "$url" | tail -1 || true
commands=(-n "hlscheck local files" "$bin $work/www/master.m3u8 || true"
          -n "hlscheck http://127.0.0.1 (nginx, loopback)" "$bin $url || true")
if [ -n "${HLSCHECK_BASELINE:-}" ]; then
    commands+=(-n "baseline local files" "$HLSCHECK_BASELINE $work/www/master.m3u8 || true"
               -n "baseline http://127.0.0.1 (nginx, loopback)" "$HLSCHECK_BASELINE $url || true")
fi
hyperfine --warmup 2 --runs ${BENCH_RUNS:-15} --style basic --export-json "$work/results.json" "${commands[@]}"
echo
python3 - "$work/results.json" "$segments" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
segments = int(sys.argv[2])
print("| command | median | CPU (user+sys) | per segment | ÷ local (median) | ÷ local (CPU) |")
print("|---|---:|---:|---:|---:|---:|")
for index, r in enumerate(results):
    local = results[index - index % 2]  # each binary against its own local run
    cpu, local_cpu = r["user"] + r["system"], local["user"] + local["system"]
    print(f"| {r['command']} | {r['median'] * 1000:.1f} ms | {cpu * 1000:.0f} ms | {r['median'] * 1000 / segments:.3f} ms "
          f"| {r['median'] / local['median']:.2f}× | {cpu / local_cpu:.2f}× |")
PY
echo
# Local and loopback alternating round by round (Tests/Benchmarks/paired.py), which cancels the
# machine's drift between hyperfine's back-to-back runs.
paired=("local=$bin $work/www/master.m3u8" "loopback=$bin $url")
[ -n "${HLSCHECK_BASELINE:-}" ] && paired+=("baseline local=$HLSCHECK_BASELINE $work/www/master.m3u8" "baseline loopback=$HLSCHECK_BASELINE $url")
# Each binary's loopback run against its own local run of the same round (PAIRED_GROUP=2).
PAIRED_GROUP=2 python3 Tests/Benchmarks/paired.py "${BENCH_PAIRED_ROUNDS:-21}" "${paired[@]}"
