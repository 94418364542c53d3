#!/usr/bin/env bash
# Part of `make bench`: hlscheck against what a user would otherwise run — ffprobe on every segment —
# side by side in one hyperfine run, on a generated 10-minute stream (100 audio-only TS segments
# and 100 H.264/AAC TS segments of 6 s). Prints medians; docs/benchmarks.md records them.
set -euo pipefail
cd "$(dirname "$0")/../../.."
command -v hyperfine >/dev/null || { echo "bench: hyperfine is needed (make bench installs it)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
seconds=600
mkdir -p "$work/audio" "$work/video"
echo "Generating a ${seconds} s stream in $work ..."
ffmpeg -hide_banner -loglevel error -f lavfi -i "sine=frequency=440:sample_rate=44100:duration=$seconds" \
  -c:a aac -b:a 32k -ac 2 -f hls -hls_time 6 -hls_playlist_type vod \
  -hls_segment_filename "$work/audio/seg%d.ts" "$work/audio/index.m3u8"
ffmpeg -hide_banner -loglevel error -f lavfi -i "testsrc2=size=256x144:rate=25:duration=$seconds" \
  -f lavfi -i "sine=frequency=440:sample_rate=44100:duration=$seconds" \
  -c:v libx264 -preset veryfast -g 50 -sc_threshold 0 -b:v 150k -c:a aac -b:a 64k \
  -f hls -hls_time 6 -hls_playlist_type vod -hls_segment_filename "$work/video/seg%d.ts" "$work/video/index.m3u8"
cat > "$work/master.m3u8" <<M3U8
#EXTM3U
#EXT-X-VERSION:3
#EXT-X-STREAM-INF:BANDWIDTH=400000,CODECS="avc1.64000c,mp4a.40.2",RESOLUTION=256x144
video/index.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=50000,CODECS="mp4a.40.2"
audio/index.m3u8
M3U8
segments=$(ls "$work"/audio/*.ts "$work"/video/*.ts | wc -l)
echo "$segments segments, $(du -sh "$work" | cut -f1)"

bin=.build/release/hlscheck
echo "What hlscheck finds in it (so the timing below is of a real check):"
"$bin" "$work/master.m3u8" | sed "s|$work|STREAM|g" | tail -6 || true
hyperfine --warmup 1 --runs 7 --style basic --export-json "$work/results.json" \
  -n "hlscheck (all segments, in-process libavformat)" "$bin $work/master.m3u8 --fail-on warning || true" \
  -n "hlscheck --playlist-only" "$bin $work/master.m3u8 --playlist-only || true" \
  -n "ffprobe -show_packets per segment" \
     "for f in $work/audio/*.ts $work/video/*.ts; do ffprobe -v error -show_entries packet=pts_time,size -of csv \$f >/dev/null; done"
echo
python3 - "$work/results.json" "$segments" <<'PY2'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
segments = int(sys.argv[2])
baseline = results[-1]["median"]
print("| command | median | per segment | ffprobe's time ÷ this |")
print("|---|---:|---:|---:|")
for r in results:
    print(f"| {r['command']} | {r['median'] * 1000:.1f} ms | {r['median'] * 1000 / segments:.3f} ms | {baseline / r['median']:.1f}× |")
PY2
