#!/usr/bin/env bash
# Part of `make bench` ("memory flat in stream length: ≤ 1 MB per 10 000 segments of
# retained facts"): peak RSS of a full check against stream length, a baseline binary and this
# build side by side, and the slope per 10 000 segments; then wall and CPU time of the check of
# 10 000 segments, so that the compact records cost no speed.
#   - the stream: N one-second AAC TS segments, hard links to one 6 KB segment, each under its own
#     name and behind EXT-X-DISCONTINUITY (the check reads and demuxes every one and finds nothing
#     per segment: what grows is what it keeps, not a list of findings);
#   - the --playlist-only column is the playlist model's share of the same stream.
#   BASELINE=/path/to/hlscheck   the binary to compare with (default: /work/baseline-hlscheck when
#                                present; without one, only this build's columns are printed)
#   RETAINED_SIZES="100 1000"    the stream lengths (default 100 1000 10000 50000)
set -euo pipefail
cd "$(dirname "$0")/../../.."
command -v hyperfine >/dev/null || { echo "bench: hyperfine is needed (make bench installs it)" >&2; exit 1; }
bin=.build/release/hlscheck
baseline=${BASELINE:-/work/baseline-hlscheck}
[ -x "$baseline" ] || baseline=
sizes=${RETAINED_SIZES:-100 1000 10000 50000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

ffmpeg -hide_banner -loglevel error -f lavfi -i "sine=frequency=440:sample_rate=44100:duration=1" \
    -c:a aac -b:a 32k -f mpegts "$work/one.ts"
stream() {
    python3 - "$work" "$1" <<'PY'
import os, sys
work, n = sys.argv[1], int(sys.argv[2])
folder = os.path.join(work, "segments-%d" % n)
os.mkdir(folder)
lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:1", "#EXT-X-PLAYLIST-TYPE:VOD"]
for i in range(1, n + 1):
    os.link(os.path.join(work, "one.ts"), os.path.join(folder, "s%d.ts" % i))
    lines += ["#EXT-X-DISCONTINUITY", "#EXTINF:1.0,", "s%d.ts" % i]
open(os.path.join(folder, "index.m3u8"), "w").write("\n".join(lines + ["#EXT-X-ENDLIST"]) + "\n")
PY
}
# Peak RSS in KiB (GNU time).
rss() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }
mb() { awk -v k="$1" 'BEGIN { printf "%.1f MB", k / 1024 }'; }

declare -A base_rss own_rss model_rss
for n in $sizes; do
    stream "$n"
    playlist=$work/segments-$n/index.m3u8
    own_rss[$n]=$(rss "$bin" "$playlist" --fail-on never)
    model_rss[$n]=$(rss "$bin" "$playlist" --playlist-only --fail-on never)
    [ -n "$baseline" ] && base_rss[$n]=$(rss "$baseline" "$playlist" --fail-on never)
    # Keep the 10 000-segment stream for the timing below.
    [ "$n" = 10000 ] || rm -rf "$work/segments-$n"
done

echo "Peak RSS of a full check (GNU time %M)${baseline:+; baseline: $baseline}"
echo
if [ -n "$baseline" ]; then
    echo "| segments | baseline | this build | this build, --playlist-only |"
    echo "|---:|---:|---:|---:|"
    for n in $sizes; do echo "| $n | $(mb "${base_rss[$n]}") | $(mb "${own_rss[$n]}") | $(mb "${model_rss[$n]}") |"; done
else
    echo "| segments | this build | this build, --playlist-only |"
    echo "|---:|---:|---:|"
    for n in $sizes; do echo "| $n | $(mb "${own_rss[$n]}") | $(mb "${model_rss[$n]}") |"; done
fi
# The slope between the shortest and the longest stream, per 10 000 segments.
set -- $sizes
first=$1
shift $(($# - 1))
last=$1
slope() { awk -v a="$1" -v b="$2" -v n="$first" -v m="$last" 'BEGIN { printf "%.2f MB", (b - a) / 1024 * 10000 / (m - n) }'; }
if [ "$first" != "$last" ]; then
    retained=$(awk -v a="${own_rss[$first]}" -v b="${own_rss[$last]}" -v c="${model_rss[$first]}" -v d="${model_rss[$last]}" \
        'BEGIN { print (b - a) - (d - c) }')
    if [ -n "$baseline" ]; then
        echo "| per 10 000 segments ($first → $last) | $(slope "${base_rss[$first]}" "${base_rss[$last]}") | $(slope "${own_rss[$first]}" "${own_rss[$last]}") | $(slope "${model_rss[$first]}" "${model_rss[$last]}") |"
    else
        echo "| per 10 000 segments ($first → $last) | $(slope "${own_rss[$first]}" "${own_rss[$last]}") | $(slope "${model_rss[$first]}" "${model_rss[$last]}") |"
    fi
    echo
    echo "Retained facts (full check minus --playlist-only), this build: $(slope 0 "$retained") per 10 000 segments"
fi

playlist=$work/segments-10000/index.m3u8
[ -f "$playlist" ] || exit 0
echo
hyperfine --warmup 1 --runs 5 --style basic --export-json "$work/time.json" \
    ${baseline:+-n "baseline, 10 000 segments" "$baseline $playlist --fail-on never"} \
    -n "this build, 10 000 segments" "$bin $playlist --fail-on never" >/dev/null
python3 - "$work/time.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
print("| full check | wall, mean ± σ | user + sys |")
print("|---|---:|---:|")
for r in results:
    print("| %s | %.2f ± %.2f s | %.2f s |" % (r["command"], r["mean"], r["stddev"], r["user"] + r["system"]))
PY
