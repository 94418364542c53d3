#!/usr/bin/env bash
# Part of `make bench`: a segment listed on many lines is inspected once (SegmentFactsCache,
# docs/security.md "Repeated segments"). Three media playlists, each timed with hlscheck and,
# when HLSCHECK_BASELINE names another binary (e.g. main's), with it in the same hyperfine run:
#   repeated  one 2 s audio TS segment listed on 10 000 lines;
#   big       one ~100 MB 1080p TS segment listed on 50 lines;
#   distinct  the ordinary stream: 601 distinct 2 s audio TS segments (must not get slower);
#   remote    the repeated playlist served by nginx on loopback (when nginx is installed);
#   startup   the same with --playlist-only: what a run costs before any segment is read.
#   HLSCHECK_BIN=path       the binary measured (default .build/release/hlscheck)
#   HLSCHECK_BASELINE=path  another binary measured in the same runs
#   BENCH_WORK=folder       keep the generated media there and reuse it on the next run
#   BENCH_RUNS=N            runs per command (default 5; the big playlist always 3)
set -euo pipefail
cd "$(dirname "$0")/../../.."
command -v hyperfine >/dev/null || { echo "bench: hyperfine is needed (make bench installs it)" >&2; exit 1; }
bin=${HLSCHECK_BIN:-.build/release/hlscheck}
if [ -n "${BENCH_WORK:-}" ]; then work=$BENCH_WORK; mkdir -p "$work"; else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi
runs=${BENCH_RUNS:-5}

# The ordinary stream: 1200 s of AAC at 32 kbit/s in 2 s TS segments (601 segments).
if [ ! -s "$work/distinct/index.m3u8" ]; then
    mkdir -p "$work/distinct"
    echo "Generating a 1200 s audio-only stream of 2 s segments in $work/distinct ..."
    ffmpeg -hide_banner -loglevel error -f lavfi -i "sine=frequency=440:sample_rate=44100:duration=1200" \
      -c:a aac -b:a 32k -ac 2 -f hls -hls_time 2 -hls_playlist_type vod \
      -hls_segment_filename "$work/distinct/seg%d.ts" "$work/distinct/index.m3u8"
fi
# One of its segments on 10 000 lines.
mkdir -p "$work/repeated"
cp "$work/distinct/seg1.ts" "$work/repeated/seg.ts"
python3 - "$work/repeated/index.m3u8" seg.ts 10000 2.0 2 <<'PY'
import sys
path, name, lines, extinf, target = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
with open(path, "w") as out:
    out.write(f"#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:{target}\n#EXT-X-PLAYLIST-TYPE:VOD\n")
    out.write(f"#EXTINF:{extinf},\n{name}\n" * lines)
    out.write("#EXT-X-ENDLIST\n")
PY
# A ~100 MB segment (10 s of 1080p H.264 at ~20 Mbit/s + AAC, looped by stream copy) on 50 lines.
big="$work/big/seg.ts"
if [ ! -s "$big" ]; then
    mkdir -p "$work/big"
    echo "Generating a ~100 MB segment in $work/big ..."
    ffmpeg -hide_banner -loglevel error -f lavfi -i "testsrc2=size=1920x1080:rate=25:duration=10" \
      -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=10" \
      -c:v libx264 -preset ultrafast -g 50 -b:v 20M -maxrate 20M -bufsize 20M -c:a aac -b:a 128k \
      -f mpegts "$work/clip.ts"
    loops=$(( 100000000 / $(stat -c %s "$work/clip.ts") ))
    ffmpeg -hide_banner -loglevel error -stream_loop "$loops" -i "$work/clip.ts" -c copy -f mpegts "$big"
    rm -f "$work/clip.ts"
fi
duration=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$big")
python3 - "$work/big/index.m3u8" seg.ts 50 "$duration" "$(python3 -c "import math; print(math.ceil($duration))")" <<'PY'
import sys
path, name, lines, extinf, target = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
with open(path, "w") as out:
    out.write(f"#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:{target}\n#EXT-X-PLAYLIST-TYPE:VOD\n")
    out.write(f"#EXTINF:{extinf},\n{name}\n" * lines)
    out.write("#EXT-X-ENDLIST\n")
PY
echo "repeated: $(stat -c %s "$work/repeated/seg.ts") bytes × 10000 lines; big: $(stat -c %s "$big") bytes × 50 lines; distinct: $(ls "$work"/distinct/*.ts | wc -l) segments"

# hlscheck exits 1 on the findings a repeated segment has (timestamps going back, continuity): `|| true`.
time_case() {   # name, playlist, runs
    local name=$1 playlist=$2 n=$3 commands=()
    commands+=(-n "$name: hlscheck" "$bin $playlist || true")
    [ -n "${HLSCHECK_BASELINE:-}" ] && commands+=(-n "$name: baseline" "$HLSCHECK_BASELINE $playlist || true")
    hyperfine --warmup 1 --runs "$n" --style basic --export-json "$work/$name.json" "${commands[@]}" >&2
}
time_case repeated "$work/repeated/index.m3u8" "$runs"
time_case big "$work/big/index.m3u8" 3
time_case distinct "$work/distinct/index.m3u8" "$runs"
# The repeated playlist over loopback HTTP from nginx (when installed): each line a GET before.
nginx=$(command -v nginx || echo /usr/sbin/nginx)
remote_json=()
if [ -x "$nginx" ]; then
    . Tests/Benchmarks/nginx-loopback.sh
    chmod a+rx "$work"   # the worker (nobody) passes through to the served folder
    start_nginx "$work/repeated" "$work/nginx" "$work/nginx/access.log" index.m3u8
    port=$nginx_port
    server_pid=$nginx_pid
    trap 'kill $server_pid 2>/dev/null; [ -z "${BENCH_WORK:-}" ] && rm -rf "$work"; true' EXIT
    : > "$work/nginx/access.log"
    "$bin" "http://127.0.0.1:$port/index.m3u8" >/dev/null || true
    echo "GETs of seg.ts by one hlscheck run: $(grep -c 'GET /seg.ts' "$work/nginx/access.log")"
    if [ -n "${HLSCHECK_BASELINE:-}" ]; then
        : > "$work/nginx/access.log"
        "$HLSCHECK_BASELINE" "http://127.0.0.1:$port/index.m3u8" >/dev/null || true
        echo "GETs of seg.ts by one baseline run: $(grep -c 'GET /seg.ts' "$work/nginx/access.log")"
    fi
    time_case remote "http://127.0.0.1:$port/index.m3u8" 3
    remote_json=("$work/remote.json")
fi

# What a run costs before any segment is read: a static baseline starts faster than a dynamic build.
time_case startup "$work/distinct/index.m3u8 --playlist-only" "$runs"

# Peak RSS of one run, in MB (getrusage of the child).
peak() {
    python3 - "$@" <<'PY'
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(f"{resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024:.0f}")
PY
}
rss=()
for name in repeated big distinct; do
    rss+=("$(peak "$bin" "$work/$name/index.m3u8")")
    [ -n "${HLSCHECK_BASELINE:-}" ] && rss+=("$(peak "$HLSCHECK_BASELINE" "$work/$name/index.m3u8")")
done

echo
python3 - "${rss[*]}" "$work"/repeated.json "$work"/big.json "$work"/distinct.json "${remote_json[@]}" "$work"/startup.json <<'PY'
import json, sys
# On a shared machine wall time mostly measures the queue for a core; CPU time (user + system,
# hyperfine's means) is the cost of the work itself.
rss = iter(sys.argv[1].split())
print("| playlist | binary | median (wall) | CPU user+sys | baseline ÷ this (CPU) | peak RSS |")
print("|---|---|---:|---:|---:|---:|")
for path in sys.argv[2:]:
    results = json.load(open(path))["results"]
    ours = results[0]["user"] + results[0]["system"]
    for r in results:
        name, binary = r["command"].split(": ")
        cpu = r["user"] + r["system"]
        ratio = f"{cpu / ours:.2f}×" if binary == "baseline" else ""
        memory = next(rss, "-") if name not in ("startup", "remote") else "-"
        memory = memory if memory == "-" else f"{memory} MB"
        print(f"| {name} | {binary} | {r['median'] * 1000:.0f} ms | {cpu * 1000:.0f} ms | {ratio} | {memory} |")
PY
# The distinct stream must not get slower: the two binaries alternating round by round
# (Tests/Benchmarks/paired.py), which cancels the drift of a shared machine.
if [ -n "${HLSCHECK_BASELINE:-}" ]; then
    echo
    python3 Tests/Benchmarks/paired.py "${BENCH_PAIRED_ROUNDS:-21}" \
      "this=$bin $work/distinct/index.m3u8" "baseline=$HLSCHECK_BASELINE $work/distinct/index.m3u8"
fi
